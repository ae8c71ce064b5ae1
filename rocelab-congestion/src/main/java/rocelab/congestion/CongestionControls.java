package rocelab.congestion;

import java.util.List;
import java.util.Optional;
import rocelab.congestion.none.NoCongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;

/** The registry of congestion controls by scenario name. Adding an algorithm means adding one entry here. */
public final class CongestionControls {
    private static final List<CongestionControlFactory> ALL = List.of(NoCongestionControl.FACTORY);

    private CongestionControls() {}

    public static Optional<CongestionControlFactory> byName(String name) {
        return ALL.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    public static List<String> names() {
        return ALL.stream().map(CongestionControlFactory::name).toList();
    }
}
