package rocelab.fabric.flowcontrol;

import java.util.Locale;

/**
 * PFC headroom: the bytes that can still arrive on a lossless priority after the switch decides XOFF. The sum of
 * the frame the switch is sending when it decides (PFC cannot preempt it), the cable round trip, the peer's
 * response time (IEEE 802.3 Annex 31B, in pause quanta per speed), and the frame the peer is sending when it
 * reacts; the same terms as SONiC's and NVIDIA Spectrum's headroom calculation, without ASIC pipeline and cell
 * effects.
 */
public final class Headroom {
    /** Signal speed in the cable, about 0.66 c. */
    public static final double CABLE_METERS_PER_SECOND = 1.98e8;

    private Headroom() {}

    /** The 802.3 upper bound of the pause response time at a speed, in quanta (512 bit times). */
    public static int responseQuanta(long rateBps) {
        long g = rateBps / 1_000_000_000L;
        if (g <= 10) {
            return 67;
        } else if (g <= 25) {
            return 80;
        } else if (g <= 40) {
            return 118;
        } else if (g <= 50) {
            return 147;
        } else if (g <= 100) {
            return 394;
        } else if (g <= 200) {
            return 453;
        }
        return 905;
    }

    /** Cable length that a propagation delay corresponds to, in meters. */
    public static double cableMeters(long delayPs) {
        return delayPs / 1e12 * CABLE_METERS_PER_SECOND;
    }

    /** Bytes in flight on both directions of the cable: 2 L R / v / 8. */
    public static long cableBytes(long rateBps, double cableMeters) {
        return (long) Math.ceil(2 * cableMeters * rateBps / CABLE_METERS_PER_SECOND / 8);
    }

    /** The peer's response time in bytes at line rate. */
    public static long responseBytes(long rateBps) {
        return responseQuanta(rateBps) * 512L / 8;
    }

    /**
     * Headroom for one lossless priority of a port.
     *
     * @param frameBytes the largest frame on the link (MTU payload plus headers)
     */
    public static long bytes(long rateBps, double cableMeters, int frameBytes) {
        // Saturating: a cable too long to compute comes out as more headroom than any buffer, never as negative.
        return rocelab.engine.Saturating.add(2L * frameBytes + responseBytes(rateBps),
                cableBytes(rateBps, cableMeters));
    }

    /** The computation with every term, for people. */
    public static String explain(long rateBps, double cableMeters, int frameBytes) {
        long cable = cableBytes(rateBps, cableMeters);
        long response = responseBytes(rateBps);
        long total = bytes(rateBps, cableMeters, frameBytes);
        return String.format(Locale.ROOT, String.join("\n",
                "headroom = frame in transmission + cable round trip + peer response + peer's frame in transmission",
                "  frame in transmission   %,9d B   (largest frame on the link)",
                "  cable round trip        %,9d B   (2 x %.1f m x %.0f Gb/s / %.3g m/s / 8)",
                "  peer response           %,9d B   (%d quanta x 512 bit / 8, IEEE 802.3 Annex 31B at %.0f Gb/s)",
                "  peer's frame            %,9d B",
                "  total                   %,9d B   (%.1f KiB)"),
                frameBytes, cable, cableMeters, rateBps / 1e9, CABLE_METERS_PER_SECOND, response,
                responseQuanta(rateBps), rateBps / 1e9, frameBytes, total, total / 1024.0);
    }

    /** How long a pause of {@code quanta} holds a priority at a rate, in picoseconds. */
    public static long pauseDurationPs(int quanta, long rateBps) {
        return rocelab.engine.Rates.serializationPs(quanta * 64L, rateBps);
    }
}
