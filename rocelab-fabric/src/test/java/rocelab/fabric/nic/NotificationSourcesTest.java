package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A QP's notifications told by the port whose mark caused each, for any range of them. */
class NotificationSourcesTest {
    @Test
    void shouldCountARangeByTheMarksPortMostFirst() {
        NotificationSources s = new NotificationSources();
        // 0-2 at (7, 1), 3 at (9, 0), 4-5 at (7, 1), 6 with no mark carried
        for (int i = 0; i < 3; i++) {
            s.record(7, 1);
        }
        s.record(9, 0);
        s.record(7, 1);
        s.record(7, 1);
        s.record(-1, 5);
        assertThat(s.bySource(0, 7)).containsExactly(7, 1, 5, -1, 0, 1, 9, 0, 1);
        assertThat(s.bySource(2, 4)).containsExactly(7, 1, 1, 9, 0, 1);
        assertThat(s.bySource(3, 4)).containsExactly(9, 0, 1);
        assertThat(s.bySource(4, 6)).containsExactly(7, 1, 2);
        assertThat(s.bySource(7, 9)).isEmpty();
        assertThat(s.bySource(5, 5)).isEmpty();
    }

    @Test
    void shouldCountPastTheRunsKeptAsUnknownWithTheTotalTrue() {
        NotificationSources s = new NotificationSources();
        int n = 3 * NotificationSources.MAX_RUNS;
        for (int i = 0; i < n; i++) {
            s.record(i % 2, 0); // every notification from the other port: a run each
        }
        long[] all = s.bySource(0, n);
        long total = 0;
        for (int i = 2; i < all.length; i += 3) {
            total += all[i];
        }
        assertThat(total).isEqualTo(n);
        // The first MAX_RUNS - 1 are placed, the rest told as unknown.
        assertThat(all).containsExactly(-1, 0, n - (NotificationSources.MAX_RUNS - 1),
                0, 0, NotificationSources.MAX_RUNS / 2, 1, 0, NotificationSources.MAX_RUNS / 2 - 1);
        assertThat(s.bySource(0, 4)).containsExactly(0, 0, 2, 1, 0, 2);
    }
}
