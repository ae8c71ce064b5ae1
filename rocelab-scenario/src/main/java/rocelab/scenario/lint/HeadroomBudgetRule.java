package rocelab.scenario.lint;

import java.util.List;
import java.util.Locale;
import rocelab.observe.output.Numbers;
import rocelab.scenario.device.SwitchConfig;

/**
 * L4: headroom is reserved out of the switch buffer for every lossless priority group of every port; when it takes
 * most of the buffer, little shared buffer is left and the dynamic threshold pauses early.
 */
final class HeadroomBudgetRule implements LintRule {
    @Override
    public String id() {
        return "L4";
    }

    @Override
    public String title() {
        return "Headroom takes most of the switch buffer";
    }

    @Override
    public void check(LintContext c, Findings out) {
        for (SwitchConfig s : c.devices().switches()) {
            if (!s.pfc().enabled()) {
                continue;
            }
            long reserved = BufferMath.reserved(s);
            long buffer = s.parameters().bufferBytes();
            if (2 * reserved > buffer) {
                out.add(this, Severity.WARNING, List.of(s.name()), List.of(), String.format(Locale.ROOT,
                        "%s reserves %,d B of PFC headroom (%s x %s), %.0f%% of its %,d B"
                                + " buffer", s.name(), reserved, Numbers.count(s.portCount(), "port", "ports"),
                        Numbers.count(Integer.bitCount(s.pfc().losslessMask()), "lossless priority",
                                "lossless priorities"), 100.0 * reserved / buffer, buffer),
                        "little shared buffer is left: the dynamic XOFF threshold is low, PFC pauses early and"
                                + " often, lossy classes tail-drop early",
                        "a larger buffer, fewer lossless priorities, or shorter cables (less headroom)");
            }
        }
    }
}
