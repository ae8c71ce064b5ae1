package rocelab.observe.sample;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Rows kept in blocks read back exactly, across block boundaries, for both row widths. */
class LongColumnsTest {
    @Test
    void shouldReadBackEveryRowAcrossBlocks() {
        int n = 3 * LongColumns.BLOCK_ROWS + 5;
        LongColumns four = new LongColumns(4);
        LongColumns six = new LongColumns(6);
        for (int r = 0; r < n; r++) {
            four.add(r, -r, 3L * r, Long.MAX_VALUE - r);
            six.add(r, r + 1, r + 2, r + 3, r + 4, Long.MIN_VALUE + r);
        }
        assertThat(four.rows()).isEqualTo(n);
        assertThat(six.rows()).isEqualTo(n);
        for (int r = 0; r < n; r++) {
            assertThat(new long[] {four.get(r, 0), four.get(r, 1), four.get(r, 2), four.get(r, 3)})
                    .containsExactly(r, -r, 3L * r, Long.MAX_VALUE - r);
            for (int c = 0; c < 5; c++) {
                assertThat(six.get(r, c)).isEqualTo(r + c);
            }
            assertThat(six.get(r, 5)).isEqualTo(Long.MIN_VALUE + r);
        }
    }
}
