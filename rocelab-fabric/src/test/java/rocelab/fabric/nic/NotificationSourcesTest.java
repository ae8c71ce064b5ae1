package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A QP's notifications told by the port whose mark caused each, for any range of them. */
class NotificationSourcesTest {
    @Test
    void shouldCountARangeByTheMarksPortMostFirstWithThoseAPauseHeld() {
        NotificationSources s = new NotificationSources();
        // 0-2 at (7, 1), the middle one held there by a pause; 3 at (9, 0); 4-5 at (7, 1); 6 with no mark carried
        s.record(7, 1, false);
        s.record(7, 1, true);
        s.record(7, 1, false);
        s.record(9, 0, false);
        s.record(7, 1, false);
        s.record(7, 1, true);
        s.record(-1, 5, true);
        assertThat(s.bySource(0, 7)).containsExactly(7, 1, 5, 2, -1, 0, 1, 0, 9, 0, 1, 0);
        assertThat(s.bySource(2, 4)).containsExactly(7, 1, 1, 0, 9, 0, 1, 0);
        assertThat(s.bySource(1, 2)).containsExactly(7, 1, 1, 1);
        assertThat(s.bySource(3, 4)).containsExactly(9, 0, 1, 0);
        assertThat(s.bySource(4, 6)).containsExactly(7, 1, 2, 1);
        assertThat(s.bySource(7, 9)).isEmpty();
        assertThat(s.bySource(5, 5)).isEmpty();
    }

    @Test
    void shouldCountPastTheRunsKeptAsUnknownWithTheTotalTrue() {
        NotificationSources s = new NotificationSources();
        int n = 3 * NotificationSources.MAX_RUNS;
        for (int i = 0; i < n; i++) {
            s.record(i % 2, 0, false); // every notification from the other port: a run each
        }
        long[] all = s.bySource(0, n);
        long total = 0;
        for (int i = 2; i < all.length; i += NotificationSources.FIELDS) {
            total += all[i];
        }
        assertThat(total).isEqualTo(n);
        // The first MAX_RUNS - 1 are placed, the rest told as unknown.
        assertThat(all).containsExactly(-1, 0, n - (NotificationSources.MAX_RUNS - 1), 0,
                0, 0, NotificationSources.MAX_RUNS / 2, 0, 1, 0, NotificationSources.MAX_RUNS / 2 - 1, 0);
        assertThat(s.bySource(0, 4)).containsExactly(0, 0, 2, 0, 1, 0, 2, 0);
    }
}
