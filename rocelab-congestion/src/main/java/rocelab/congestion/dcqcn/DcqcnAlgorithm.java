package rocelab.congestion.dcqcn;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/** DCQCN as a scenario option: {@code cc: dcqcn} with {@code dcqcn: {profile: ..., <overrides>}}. */
public final class DcqcnAlgorithm implements CongestionAlgorithm {
    @Override
    public String name() {
        return "dcqcn";
    }

    @Override
    public List<String> profiles() {
        return Arrays.stream(DcqcnProfile.values()).map(DcqcnProfile::key).toList();
    }

    @Override
    public String defaultProfile() {
        return DcqcnSettings.DEFAULT_PROFILE.key();
    }

    @Override
    public Map<String, Unit> parameters() {
        Map<String, Unit> m = new HashMap<>();
        DcqcnSettings.KEYS.forEach((k, v) -> m.put(k, switch (v) {
            case "time" -> Unit.TIME;
            case "rate" -> Unit.RATE;
            case "size" -> Unit.SIZE;
            case "count" -> Unit.COUNT;
            case "flag" -> Unit.FLAG;
            default -> Unit.FRACTION;
        }));
        return m;
    }

    public DcqcnSettings settings(CcSettings s) {
        DcqcnProfile profile = s.profile() == null ? DcqcnSettings.DEFAULT_PROFILE : DcqcnProfile.fromKey(s.profile());
        if (profile == null) {
            throw new IllegalArgumentException("unknown DCQCN profile " + s.profile());
        }
        return new DcqcnSettings(profile, s.overrides());
    }

    /** The profile and overrides resolved at the RNIC's line rate, as each of its QPs resolves them. */
    @Override
    public void check(CcSettings s, long lineRateBps) {
        settings(s).resolve(lineRateBps);
    }

    @Override
    public CongestionControlFactory factory(CcSettings s) {
        return new DcqcnFactory(settings(s));
    }

    @Override
    public NotificationPointParameters notificationPoint(CcSettings s, int cnpDscp, int cnpPriority) {
        DcqcnSettings settings = settings(s);
        DcqcnParameters d = DcqcnParameters.of(settings.profile(), 100_000_000_000L);
        // The notification point's parameters do not depend on the line rate (nor on the rate overrides, which are
        // checked per RNIC): the profile's, overridden.
        Map<String, Double> o = s.overrides();
        boolean onAck = o.containsKey("cnp-on-ack") ? o.get("cnp-on-ack") != 0 : d.cnpOnAck();
        long interval = o.containsKey("cnp-interval") ? Math.round(o.get("cnp-interval")) : d.cnpIntervalPs();
        boolean perPort = o.containsKey("cnp-per-port") ? o.get("cnp-per-port") != 0 : d.cnpIntervalPerPort();
        return new NotificationPointParameters(
                onAck ? NotificationPointParameters.Mode.ACK_FLAG : NotificationPointParameters.Mode.CNP,
                interval, cnpDscp, cnpPriority, perPort);
    }
}
