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

    /**
     * What a small shared pool does under the switch's threshold: a dynamic one is a fraction of the free pool, a
     * static one does not move, and then the pool itself filling is what pauses (an audit's static 1 MB switch read
     * "the dynamic XOFF threshold is low").
     */
    private static String symptom(SwitchConfig s) {
        if (s.pfc().dynamic()) {
            return "little shared buffer is left: the dynamic XOFF threshold is low, PFC pauses early and often,"
                    + " lossy classes tail-drop early";
        }
        return "little shared buffer is left: the static xoff does not shrink with it, so the pool fills at a lower"
                + " total and then pauses whichever lossless port a packet arrives on next (pfc.csv reason"
                + " shared_pool_full), congested or not; lossy classes tail-drop early";
    }

    /**
     * A share above 50 %, with as few decimals as show it above half: 50.004 % read "50%" beside a rule about more
     * than half (a headroom and lint audit).
     */
    static String overHalf(double percent) {
        for (int decimals = 0; decimals < 4; decimals++) {
            String text = String.format(Locale.ROOT, "%." + decimals + "f", percent);
            if (Double.parseDouble(text) > 50) {
                return text;
            }
        }
        return "just over 50";
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
                        "%s reserves %,d B of PFC headroom (%s x %s), %s%% of its %,d B"
                                + " buffer", s.name(), reserved, Numbers.count(s.portCount(), "port", "ports"),
                        Numbers.count(Integer.bitCount(s.pfc().losslessMask()), "lossless priority",
                                "lossless priorities"), overHalf(100.0 * reserved / buffer), buffer),
                        symptom(s),
                        "a larger buffer, fewer lossless priorities, or shorter cables (less headroom)");
            }
        }
    }
}
