package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
    private static final long GIB = 1L << 30;

    /** A streamed flow-level run on a small fabric: the fixed window and the JVM's base, about 1.1 GiB. */
    private static Footprint streamedJustAboveOneGib() {
        return new Footprint(4, 1, 4, 268_369_920, 268_369_920, true);
    }

    @Test
    void shouldSuggestAHeapAboveTheEstimateNotBelowIt() {
        Footprint f = streamedJustAboveOneGib();
        long need = f.bytes(true);
        assertThat(need).isBetween(GIB, GIB + GIB / 4);
        String refusal = new MemoryBudget(GIB, true, true).refusal(f);
        // 1.25 x the need is between 1.25 and 1.6 GiB: the suggestion is rounded up to 2g, never down to 1g.
        long suggested = Long.parseLong(refusal.replaceAll(".*-Xmx(\\d+)g.*", "$1"));
        assertThat(suggested).isEqualTo(2);
        assertThat(suggested * GIB).isGreaterThanOrEqualTo(need + need / 4);
        assertThat(suggested * GIB).isLessThan(need + need / 4 + GIB);
    }

    @Test
    void shouldAcceptWhatFitsAndSuggestNothing() {
        Footprint f = streamedJustAboveOneGib();
        assertThat(new MemoryBudget(2 * GIB, true, true).refusal(f)).isNull();
    }

    @Test
    void shouldSuggestOneGibForASmallNeed() {
        Footprint f = new Footprint(4, 1, 4, 0, 0, false);
        assertThat(new MemoryBudget(1L << 20).refusal(f)).contains("-Xmx1g");
    }
}
