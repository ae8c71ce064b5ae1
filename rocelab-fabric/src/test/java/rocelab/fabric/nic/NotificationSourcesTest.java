package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A QP's notifications told by the port whose mark caused each, with those a pause held there. */
class NotificationSourcesTest {
    @Test
    void shouldCountByTheMarksPortMostFirstWithThoseAPauseHeld() {
        CongestionNotice n = new CongestionNotice();
        assertThat(NotificationSources.bySource(n)).isEmpty();
        NotificationSources.record(n, 7, 1, false);
        NotificationSources.record(n, 9, 0, false);
        NotificationSources.record(n, 7, 1, true);
        NotificationSources.record(n, 7, 1, false);
        NotificationSources.record(n, 9, 0, true);
        NotificationSources.record(n, -1, 5, true); // no mark carried
        assertThat(NotificationSources.bySource(n))
                .containsExactly(7, 1, 3, 1, 9, 0, 2, 1, NotificationSources.OTHER, 0, 1, 0);
    }

    @Test
    void shouldCountPortsBeyondTheSlotsTogetherWithTheTotalTrue() {
        CongestionNotice n = new CongestionNotice();
        int total = 1000;
        for (int i = 0; i < total; i++) {
            NotificationSources.record(n, i % 5, 2, i % 2 == 0); // five ports in turn: two kept apart
        }
        long[] all = NotificationSources.bySource(n);
        long sum = 0;
        for (int i = 2; i < all.length; i += NotificationSources.FIELDS) {
            sum += all[i];
        }
        assertThat(sum).isEqualTo(total);
        assertThat(all).containsExactly(NotificationSources.OTHER, 0, 600, 0, 0, 2, 200, 100, 1, 2, 200, 100);
    }
}
