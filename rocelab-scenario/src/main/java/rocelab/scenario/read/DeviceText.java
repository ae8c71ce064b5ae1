package rocelab.scenario.read;

import java.util.Arrays;
import rocelab.scenario.device.Devices;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;

/**
 * The canonical rendering of per-device settings, appended to the scenario's canonical text (and so to its hash)
 * only when the scenario uses them, so the hash of a scenario without them is what it always was.
 */
final class DeviceText {
    private DeviceText() {}

    /** Whether the scenario uses a per-device key: the override lists or a key that only they used to need. */
    static boolean used(YamlMap top, YamlMap switchMap, YamlMap nicMap) {
        if (top.has("switches") || top.has("nics") || switchMap != null && switchMap.has("mtu")) {
            return true;
        }
        if (nicMap != null) {
            for (String k : new String[] {"trust", "dscp-to-priority", "pfc", "np", "rp"}) {
                if (nicMap.has(k)) {
                    return true;
                }
            }
        }
        return false;
    }

    static String render(Devices devices, boolean used) {
        if (!used) {
            return "";
        }
        StringBuilder out = new StringBuilder("devices:\n");
        for (SwitchConfig s : devices.switches()) {
            out.append("  ").append(s.name()).append(": ").append(s.parameters())
                    .append(" dscp-to-tc=").append(Arrays.toString(s.parameters().dscpToTc()))
                    .append(" weights=").append(Arrays.toString(s.parameters().dwrrWeights()))
                    .append(" strict=").append(s.parameters().strictClasses())
                    .append(" buffer=").append(s.parameters().bufferBytes())
                    .append(' ').append(s.pfc())
                    .append(" ecn=").append(Arrays.toString(s.ecnByPort()))
                    .append(" headroom=").append(Arrays.toString(s.headroomByPort()))
                    .append(" mtu=").append(Arrays.toString(s.mtuByPort())).append('\n');
        }
        for (NicConfig n : devices.nics()) {
            out.append("  h").append(n.host()).append(": ").append(n.parameters()).append(" trust=")
                    .append(n.trust().key()).append(" dscp-to-priority=").append(Arrays.toString(n.dscpToPriority()))
                    .append(" pfc=").append(n.pfcMask()).append(" cc=").append(n.congestion()).append(" np=")
                    .append(n.notificationPoint()).append(" rp=").append(n.reactionPoint()).append(" cnp=")
                    .append(n.cnpDscp()).append('/').append(n.cnpPriority()).append(" rx=").append(n.receive())
                    .append('\n');
        }
        return out.toString();
    }
}
