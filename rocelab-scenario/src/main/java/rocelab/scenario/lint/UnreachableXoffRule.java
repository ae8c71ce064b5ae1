package rocelab.scenario.lint;

import java.util.List;
import java.util.Locale;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.scenario.device.SwitchConfig;

/**
 * L28: a static XOFF threshold at or above the shared pool (the buffer less the headroom reserved for every lossless
 * priority group) is never reached: a group's shared use cannot exceed the pool, so every pause is the pool filling
 * ({@code SharedBuffer}: a packet that finds the pool full goes to headroom and pauses its port, whatever that port's
 * share). An audit's 1 MB switch with {@code xoff: 500KB} and 563,247 B of headroom had a 436,753 B pool: all 318
 * pauses of its incast were {@code shared_pool_full}, and the lint said nothing. A property of the configuration,
 * checked on every switch with PFC, whatever the traffic.
 */
final class UnreachableXoffRule implements LintRule {
    @Override
    public String id() {
        return "L28";
    }

    @Override
    public String title() {
        return "Static PFC XOFF threshold the shared pool cannot reach";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (!c.lossless()) {
            return;
        }
        for (SwitchConfig s : c.devices().switches()) {
            PfcParameters pfc = s.pfc();
            if (!pfc.enabled() || pfc.dynamic()) {
                continue;
            }
            long buffer = s.parameters().bufferBytes();
            long reserved = BufferMath.reserved(s);
            long pool = buffer - reserved;
            if (pfc.xoffBytes() < pool) {
                continue;
            }
            out.add(this, Severity.WARNING, List.of(s.name()), List.of(), String.format(Locale.ROOT,
                    "%s pauses a priority group at a static xoff of %,d B of shared buffer, but its shared pool is"
                            + " %,d B (%,d B buffer less %,d B of PFC headroom): no group ever reaches its XOFF"
                            + " threshold", s.name(), pfc.xoffBytes(), pool, buffer, reserved),
                    "every pause is the shared pool filling (pfc.csv reason shared_pool_full, never threshold): it"
                            + " pauses whichever lossless port a packet arrives on next, congested or not, so the"
                            + " threshold no longer decides which senders stop",
                    String.format(Locale.ROOT, "xoff well below %,d B (a fraction of the pool per priority group),"
                            + " or threshold: dynamic, or more buffer or less headroom", pool));
        }
    }
}
