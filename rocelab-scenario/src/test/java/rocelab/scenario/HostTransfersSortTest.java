package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ideal account's sort of a port's transfers by release, their works moved alongside, on stretches of arrays. */
class HostTransfersSortTest {
    @Test
    void shouldSortAStretchByReleaseKeepingEachWorkWithItsRelease() {
        Random random = new Random(7);
        for (int n : new int[] {0, 1, 2, 3, 7, 64, 1000, 1025}) {
            long[] release = new long[n + 10];
            long[] work = new long[n + 10];
            for (int i = 0; i < release.length; i++) {
                release[i] = random.nextInt(50);
                // The work names its release, so a pair torn apart shows.
                work[i] = release[i] * 1_000_000 + i;
            }
            long[] before = release.clone();
            long[] workBefore = work.clone();
            HostTransfers.sortByRelease(release, work, 5, 5 + n, new long[n], new long[n]);
            for (int i = 5; i < 5 + n; i++) {
                assertThat(work[i] / 1_000_000).as("n=%d, i=%d", n, i).isEqualTo(release[i]);
                if (i > 5) {
                    assertThat(release[i]).isGreaterThanOrEqualTo(release[i - 1]);
                }
            }
            long[] sorted = Arrays.copyOfRange(before, 5, 5 + n);
            Arrays.sort(sorted);
            assertThat(Arrays.copyOfRange(release, 5, 5 + n)).containsExactly(sorted);
            long[] works = Arrays.copyOfRange(work, 5, 5 + n);
            long[] worksBefore = Arrays.copyOfRange(workBefore, 5, 5 + n);
            Arrays.sort(works);
            Arrays.sort(worksBefore);
            assertThat(works).containsExactly(worksBefore);
            // Outside the stretch nothing moved.
            for (int i = 0; i < 5; i++) {
                assertThat(release[i]).isEqualTo(before[i]);
                assertThat(release[release.length - 1 - i]).isEqualTo(before[release.length - 1 - i]);
            }
        }
    }
}
