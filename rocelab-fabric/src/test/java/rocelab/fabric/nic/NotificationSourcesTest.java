package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A QP's notifications told by the port whose mark caused each, with those a pause held there. */
class NotificationSourcesTest {
    @Test
    void shouldCountByTheMarksPortMostFirstWithThoseAPauseHeld() {
        NotificationSources s = new NotificationSources();
        assertThat(s.bySource()).isEmpty();
        s.record(7, 1, false);
        s.record(9, 0, false);
        s.record(7, 1, true);
        s.record(7, 1, false);
        s.record(9, 0, true);
        s.record(-1, 5, true); // no mark carried
        assertThat(s.bySource()).containsExactly(7, 1, 3, 1, 9, 0, 2, 1, NotificationSources.OTHER, 0, 1, 0);
    }

    @Test
    void shouldCountPortsBeyondTheSlotsTogetherWithTheTotalTrue() {
        NotificationSources s = new NotificationSources();
        int n = 1000;
        for (int i = 0; i < n; i++) {
            s.record(i % 5, 2, i % 2 == 0); // five ports in turn: three kept apart
        }
        long[] all = s.bySource();
        long total = 0;
        for (int i = 2; i < all.length; i += NotificationSources.FIELDS) {
            total += all[i];
        }
        assertThat(total).isEqualTo(n);
        assertThat(all).containsExactly(NotificationSources.OTHER, 0, 400, 0, 0, 2, 200, 100, 1, 2, 200, 100,
                2, 2, 200, 100);
    }
}
