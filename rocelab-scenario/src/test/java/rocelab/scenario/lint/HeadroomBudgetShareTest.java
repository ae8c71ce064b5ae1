package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** L4's share of the buffer in PFC headroom reads above half whenever the rule fires. */
class HeadroomBudgetShareTest {
    @Test
    void shouldShowAShareJustAboveHalfAsAboveHalf() {
        // An audit's switch reserved 50.004 % and the finding read "50%" of a rule about more than half.
        assertThat(HeadroomBudgetRule.overHalf(50.004)).isEqualTo("50.004");
        assertThat(HeadroomBudgetRule.overHalf(50.04)).isEqualTo("50.04");
        assertThat(HeadroomBudgetRule.overHalf(50.6)).isEqualTo("51");
        assertThat(HeadroomBudgetRule.overHalf(73.2)).isEqualTo("73");
        assertThat(HeadroomBudgetRule.overHalf(50.00001)).isEqualTo("just over 50");
    }
}
