package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A host's transfer intervals, merged from starts and ends sorted apart, are the union an interval list gives. */
class TransferUnionTest {
    @Test
    void shouldMergeLikeSortingTheIntervals() {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 500; trial++) {
            int n = random.nextInt(0, 40);
            long[] starts = new long[n];
            long[] ends = new long[n];
            List<long[]> intervals = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long a = random.nextLong(0, 100);
                long b = random.nextInt(8) == 0 ? Long.MAX_VALUE : a + random.nextLong(0, 12);
                starts[i] = a;
                ends[i] = b;
                intervals.add(new long[] {a, b});
            }
            List<long[]> expected = IntervalUnion.of(intervals);

            assertThat(HostTransfers.merged(starts, ends)).containsExactlyElementsOf(expected);
        }
    }
}
