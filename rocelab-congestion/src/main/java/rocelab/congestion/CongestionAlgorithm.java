package rocelab.congestion;

import java.util.List;
import java.util.Map;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/** One congestion-control algorithm as the scenario sees it: its name, profiles, parameters and factory. */
public interface CongestionAlgorithm {
    /** Unit kinds of parameters, so a reader can parse {@code 55us}, {@code 40Mbps}, {@code 10MB}. */
    enum Unit { TIME, RATE, SIZE, FRACTION, COUNT, FLAG, NUMBER }

    String name();

    /** Named profiles, or empty when the algorithm has none. */
    default List<String> profiles() {
        return List.of();
    }

    /** The profile used when the scenario names none (null when there are no profiles). */
    default String defaultProfile() {
        return null;
    }

    /** Parameters a scenario may override, with their units. */
    Map<String, Unit> parameters();

    /**
     * A factory for the settings; throws {@link IllegalArgumentException} on a bad value that does not depend on the
     * line rate. The values are resolved per RNIC line rate when a QP is created: {@link #check} them at each line rate
     * first.
     */
    CongestionControlFactory factory(CcSettings settings);

    /**
     * Throws {@link IllegalArgumentException} when the settings do not hold for an RNIC whose QPs run at
     * {@code lineRateBps} (a {@code min-rate} above it, say): what the factory's QPs would throw when created there.
     */
    default void check(CcSettings settings, long lineRateBps) {
        factory(settings);
    }

    /** How receiving RNICs notify senders when this algorithm runs (CNP DSCP and priority from the NIC settings). */
    default NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        NotificationPointParameters d = NotificationPointParameters.defaults();
        return new NotificationPointParameters(d.mode(), d.cnpIntervalPs(), cnpDscp, cnpPriority, d.intervalPerPort());
    }
}
