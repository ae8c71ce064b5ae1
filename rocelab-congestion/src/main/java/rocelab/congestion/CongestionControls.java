package rocelab.congestion;

import java.util.List;
import java.util.Optional;
import rocelab.congestion.dcqcn.DcqcnAlgorithm;
import rocelab.congestion.dctcp.DctcpAlgorithm;
import rocelab.congestion.hpcc.HpccAlgorithm;
import rocelab.congestion.ibcc.IbCcAlgorithm;
import rocelab.congestion.none.NoCongestionControl;
import rocelab.congestion.swift.SwiftAlgorithm;
import rocelab.congestion.timely.TimelyAlgorithm;

/** The registry of congestion controls by scenario name. Adding an algorithm means adding one entry here. */
public final class CongestionControls {
    private static final List<CongestionAlgorithm> ALL = List.of(
            NoCongestionControl.ALGORITHM,
            new DcqcnAlgorithm(),
            new HpccAlgorithm(),
            new TimelyAlgorithm(),
            new DctcpAlgorithm(),
            new SwiftAlgorithm(),
            new IbCcAlgorithm());

    private CongestionControls() {}

    public static Optional<CongestionAlgorithm> byName(String name) {
        return ALL.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    public static List<String> names() {
        return ALL.stream().map(CongestionAlgorithm::name).toList();
    }
}
