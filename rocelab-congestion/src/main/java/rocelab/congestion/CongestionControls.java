package rocelab.congestion;

import java.util.List;
import java.util.Optional;
import rocelab.congestion.dcqcn.DcqcnAlgorithm;
import rocelab.congestion.none.NoCongestionControl;

/** The registry of congestion controls by scenario name. Adding an algorithm means adding one entry here. */
public final class CongestionControls {
    private static final List<CongestionAlgorithm> ALL = List.of(
            NoCongestionControl.ALGORITHM,
            new DcqcnAlgorithm());

    private CongestionControls() {}

    public static Optional<CongestionAlgorithm> byName(String name) {
        return ALL.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    public static List<String> names() {
        return ALL.stream().map(CongestionAlgorithm::name).toList();
    }
}
