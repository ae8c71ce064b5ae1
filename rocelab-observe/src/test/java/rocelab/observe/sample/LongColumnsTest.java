package rocelab.observe.sample;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Rows kept in blocks, with their times kept per sample, read back exactly across block boundaries. */
class LongColumnsTest {
    @Test
    void shouldReadBackEveryRowAcrossBlocks() {
        int n = 3 * LongColumns.BLOCK_ROWS + 5;
        LongColumns three = new LongColumns(3);
        LongColumns five = new LongColumns(5);
        for (int r = 0; r < n; r++) {
            three.add(r, -r, Long.MAX_VALUE - r);
            five.add(r, r + 1, r + 2, r + 3, Long.MIN_VALUE + r);
        }
        assertThat(three.rows()).isEqualTo(n);
        assertThat(five.rows()).isEqualTo(n);
        for (int r = 0; r < n; r++) {
            assertThat(new long[] {three.get(r, 0), three.get(r, 1), three.get(r, 2)})
                    .containsExactly(r, -r, Long.MAX_VALUE - r);
            for (int c = 0; c < 4; c++) {
                assertThat(five.get(r, c)).isEqualTo(r + c);
            }
            assertThat(five.get(r, 4)).isEqualTo(Long.MIN_VALUE + r);
        }
    }

    /** Only two blocks on the heap: the four oldest of six go to the file, into their places, and are read back from it. */
    @Test
    void shouldReadBackRowsMovedToTheFile() {
        int n = 5 * LongColumns.BLOCK_ROWS + 5;
        LongColumns six = new LongColumns(6, 2);
        for (int r = 0; r < n; r++) {
            six.add(r, -r, Long.MAX_VALUE - r, 3L * r, r >>> 2, Long.MIN_VALUE + r);
        }
        assertThat(six.blocksInFile()).isEqualTo(4);
        assertThat(six.rows()).isEqualTo(n);
        for (int r = n - 1; r >= 0; r--) {
            assertThat(new long[] {six.get(r, 0), six.get(r, 1), six.get(r, 2), six.get(r, 3), six.get(r, 4),
                six.get(r, 5)}).as("row %d", r)
                    .containsExactly(r, -r, Long.MAX_VALUE - r, 3L * r, r >>> 2, Long.MIN_VALUE + r);
        }
    }

    /** The outputs' threads read the rows moved to the file at once, each through a block of its own. */
    @Test
    void shouldReadRowsMovedToTheFileOnSeveralThreadsAtOnce() throws InterruptedException {
        int n = 6 * LongColumns.BLOCK_ROWS;
        LongColumns three = new LongColumns(3, 1);
        for (int r = 0; r < n; r++) {
            three.add(r, 7L * r, -r);
        }
        assertThat(three.blocksInFile()).isEqualTo(5);
        java.util.concurrent.atomic.AtomicInteger wrong = new java.util.concurrent.atomic.AtomicInteger();
        Thread forwards = new Thread(() -> {
            for (int r = 0; r < n; r++) {
                if (three.get(r, 0) != r || three.get(r, 1) != 7L * r || three.get(r, 2) != -r) {
                    wrong.incrementAndGet();
                }
            }
        });
        Thread backwards = new Thread(() -> {
            for (int r = n - 1; r >= 0; r--) {
                if (three.get(r, 0) != r || three.get(r, 1) != 7L * r || three.get(r, 2) != -r) {
                    wrong.incrementAndGet();
                }
            }
        });
        forwards.start();
        backwards.start();
        forwards.join();
        backwards.join();
        assertThat(wrong.get()).isZero();
    }

    @Test
    void shouldGiveEachRateRowItsValuesAndItsSamplesTime() throws Exception {
        shouldGiveEachRateRowItsValuesAndItsSamplesTime(new RateRows());
    }

    /** Rows moved to the temporary file whenever 3,000 are on the heap (twice, into blocks reused), the rest in memory. */
    @Test
    void shouldReadRowsMovedToTheFileBackInOrder() throws Exception {
        RateRows rows = new RateRows(3_000);
        shouldGiveEachRateRowItsValuesAndItsSamplesTime(rows);
        assertThat(rows.rowsInFile()).isEqualTo(6_000);
    }

    private static void shouldGiveEachRateRowItsValuesAndItsSamplesTime(RateRows rows) throws Exception {
        SampleTimes times = new SampleTimes();
        int n = 2 * RateRows.BLOCK_ROWS + 7;
        long t = 0;
        long[] expectedTime = new long[n];
        for (int r = 0; r < n; ) {
            t += 10_000_000;
            times.startSample(t, rows.rows());
            int inSample = (int) (t / 10_000_000 % 5); // some samples add no row
            for (int k = 0; k < inSample && r < n; k++, r++) {
                rows.add(r % 1_000, 100_000_000_000L - r, r / 3);
                expectedTime[r] = t;
            }
        }
        int[] next = {0};
        rows.forEach((r, qp, rate, cnps) -> {
            assertThat(r).isEqualTo(next[0]++);
            assertThat(qp).isEqualTo(r % 1_000);
            assertThat(rate).isEqualTo(100_000_000_000L - r);
            assertThat(cnps).isEqualTo(r / 3);
            assertThat(times.timeOfRow(r)).as("row %d", r).isEqualTo(expectedTime[r]);
        });
        assertThat(next[0]).isEqualTo(n);
        // out of order too
        for (int r = n - 1; r >= 0; r -= 97) {
            assertThat(times.timeOfRow(r)).isEqualTo(expectedTime[r]);
        }
    }
}
