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
        DcqcnSettings settings = new DcqcnSettings(profile, s.overrides());
        settings.resolve(100_000_000_000L);
        return settings;
    }

    @Override
    public CongestionControlFactory factory(CcSettings s) {
        return new DcqcnFactory(settings(s));
    }

    @Override
    public NotificationPointParameters notificationPoint(CcSettings s, int cnpDscp, int cnpPriority) {
        DcqcnParameters p = settings(s).resolve(100_000_000_000L);
        return new NotificationPointParameters(
                p.cnpOnAck() ? NotificationPointParameters.Mode.ACK_FLAG : NotificationPointParameters.Mode.CNP,
                p.cnpIntervalPs(), cnpDscp, cnpPriority, p.cnpIntervalPerPort());
    }
}
