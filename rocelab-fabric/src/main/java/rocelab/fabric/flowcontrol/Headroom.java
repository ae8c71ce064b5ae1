package rocelab.fabric.flowcontrol;

import java.math.BigDecimal;
import java.util.Locale;
import rocelab.engine.Rates;
import rocelab.engine.Saturating;

/**
 * PFC headroom: the bytes that can still arrive on a lossless priority after the switch decides XOFF, in the
 * worst case the simulator allows. The terms: the frame whose arrival crossed the XOFF threshold (it is held in
 * headroom, as in the HPCC switch MMU), then everything the peer sends in the link time until it stops: the frame
 * the switch is sending on that port when it decides (PFC cannot preempt it), the PFC frame itself, the pause loop
 * (the delay out to the peer and back, cable and forwarding latency as {@link rocelab.fabric.network.PauseLoop}
 * gives them) and the peer's response time (IEEE 802.3 Annex 31B: how long after a PFC frame arrives the peer still
 * starts frames), counted as the buffer holds it (frames without preamble and gap); and the frame the peer started
 * just before it stopped. The terms of SONiC's and NVIDIA Spectrum's headroom calculation, plus the threshold frame
 * and the PFC frame, without ASIC pipeline and cell effects.
 */
public final class Headroom {
    /** Signal speed in the cable, about 0.66 c. */
    public static final double CABLE_METERS_PER_SECOND = 1.98e8;
    /** Link time of a PFC frame: 64 bytes plus preamble, SFD and inter-frame gap. */
    public static final int PFC_FRAME_WIRE_BYTES = 84;

    private Headroom() {}

    /** The slowest speed of the 802.3 table {@link #responseQuanta} holds: slower links are given its value. */
    public static final long SLOWEST_TABLE_BPS = 10_000_000_000L;

    /**
     * The 802.3 upper bound of the pause response time at a speed, in quanta (512 bit times); below
     * {@link #SLOWEST_TABLE_BPS}, that speed's value (not the standard's for the slower speed).
     */
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

    /** The speed, in Gb/s, of the table entry {@link #responseQuanta} takes at a speed of 10 to 400 Gb/s. */
    private static long tableGbps(long rateBps) {
        long g = rateBps / 1_000_000_000L;
        for (long t : new long[] {10, 25, 40, 50, 100, 200}) {
            if (g <= t) {
                return t;
            }
        }
        return 400;
    }

    /** The fastest speed the 802.3 table {@link #responseQuanta} holds has a value for: 400 Gb/s, 905 quanta. */
    public static final long FASTEST_TABLE_BPS = 400_000_000_000L;
    /** The fastest speed SONiC's headroom table has a value for: 800 Gb/s, where it reuses the 400 Gb/s one. */
    public static final long FASTEST_SONIC_BPS = 800_000_000_000L;

    /**
     * Where {@link #responseQuanta} takes its value at a speed from, for people: the standard's own value only
     * between 10 and 400 Gb/s. Slower and faster links are given the nearest value it has, and that says so rather
     * than cite the standard for a number it does not give.
     */
    public static String responseSource(long rateBps) {
        if (rateBps < SLOWEST_TABLE_BPS) {
            return "IEEE 802.3 Annex 31B's value at 10 Gb/s, the slowest speed rocelab has it for, applied to this"
                    + " slower link";
        } else if (rateBps <= FASTEST_TABLE_BPS) {
            long table = tableGbps(rateBps);
            // A speed between the table's (150 Gb/s, 30 Gb/s) is given a neighbour's value, which the standard does
            // not give for this speed: an audit read "453 quanta x 512 bit, IEEE 802.3 Annex 31B" at 150 Gb/s.
            return table * 1_000_000_000L == rateBps ? "IEEE 802.3 Annex 31B" : "IEEE 802.3 Annex 31B's value at "
                    + table + " Gb/s (it gives none at " + gbps(rateBps) + " Gb/s)";
        } else if (rateBps <= FASTEST_SONIC_BPS) {
            return "IEEE 802.3 Annex 31B's value at 400 Gb/s, which SONiC's headroom table reuses at 800 Gb/s";
        }
        return "extrapolated: IEEE 802.3 Annex 31B's value at 400 Gb/s, which SONiC reuses at 800 Gb/s; neither gives"
                + " one above 800 Gb/s";
    }

    /** The 802.3 pause response time at a speed, in picoseconds (the default of every transmitter). */
    public static long responsePs(long rateBps) {
        return pauseDurationPs(responseQuanta(rateBps), rateBps);
    }

    /** Cable length that a propagation delay corresponds to, in meters. */
    public static double cableMeters(long delayPs) {
        return delayPs / 1e12 * CABLE_METERS_PER_SECOND;
    }

    /** Propagation delay of a cable, in picoseconds. */
    public static long cableDelayPs(double cableMeters) {
        double ps = Math.ceil(cableMeters / CABLE_METERS_PER_SECOND * 1e12);
        if (!(ps >= 0 && cableMeters <= 1e9)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "a cable of %.3g m is out of range;"
                    + " expected 0 to 1e9 m", cableMeters));
        }
        return (long) ps;
    }

    /** Bytes of link time in {@code ps} at a rate, rounded up; saturates at {@code Long.MAX_VALUE}. */
    public static long bytesIn(long rateBps, long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("a negative delay has no link time: " + ps + " ps");
        }
        double bytes = Math.ceil((double) ps * rateBps / 8e12);
        return bytes >= 9.2e18 ? Long.MAX_VALUE : (long) bytes;
    }

    /** Bytes in flight on both directions of the cable: 2 L R / v / 8. */
    public static long cableBytes(long rateBps, double cableMeters) {
        return (long) Math.ceil(2 * cableMeters * rateBps / CABLE_METERS_PER_SECOND / 8);
    }

    /** The 802.3 response time in bytes at line rate. */
    public static long responseBytes(long rateBps) {
        return responseQuanta(rateBps) * 512L / 8;
    }

    /**
     * Headroom for one lossless priority of a port: the frame that crossed the threshold, what the peer sends in the
     * link time until it stops (the switch's frame in transmission, the PFC frame, the pause loop and the peer's
     * response), as the buffer holds it (frames without preamble and gap), and the peer's last frame.
     *
     * @param roundTripPs the pause loop: from the switch to its peer and back (see {@code PauseLoop})
     * @param responsePs how long after a PFC frame arrives the peer still starts frames
     * @param frameBytes the largest frame on the link
     * @param framingBytes preamble, SFD and inter-frame gap of every frame
     */
    public static long bytes(long rateBps, long roundTripPs, long responsePs, int frameBytes, int framingBytes) {
        // Saturating: delays too long to compute come out as more headroom than any buffer, never as negative.
        return Saturating.add(2L * frameBytes, buffered(linkTimeBytes(rateBps, roundTripPs, responsePs,
                frameBytes, framingBytes), frameBytes, framingBytes));
    }

    /** Link time, in bytes, from the XOFF decision until the peer stops starting frames. */
    private static long linkTimeBytes(long rateBps, long roundTripPs, long responsePs, int frameBytes,
            int framingBytes) {
        return Saturating.add(Saturating.add(frameBytes + framingBytes
                + PFC_FRAME_WIRE_BYTES, bytesIn(rateBps, roundTripPs)), bytesIn(rateBps, responsePs));
    }

    /** Buffer bytes of back-to-back frames filling {@code linkBytes} of link time. */
    private static long buffered(long linkBytes, int frameBytes, int framingBytes) {
        double held = Math.ceil((double) linkBytes * frameBytes / (frameBytes + framingBytes));
        return held >= 9.2e18 ? Long.MAX_VALUE : (long) held;
    }

    /** The computation with every term, for people; {@code loop} says what the pause loop is made of. */
    public static String explain(long rateBps, long roundTripPs, String loop, long responsePs, int frameBytes,
            int framingBytes) {
        long cable = bytesIn(rateBps, roundTripPs);
        long response = bytesIn(rateBps, responsePs);
        long linkTime = linkTimeBytes(rateBps, roundTripPs, responsePs, frameBytes, framingBytes);
        long held = buffered(linkTime, frameBytes, framingBytes);
        long total = bytes(rateBps, roundTripPs, responsePs, frameBytes, framingBytes);
        int wire = frameBytes + framingBytes;
        return String.format(Locale.ROOT, String.join("\n",
                "headroom = frame that crossed XOFF + what the peer sends until it stops + the peer's last frame",
                "  link time until the peer stops:",
                "    frame in transmission %,9d B   (the switch's frame on this port; PFC cannot preempt it)",
                "    PFC frame             %,9d B",
                "    pause loop            %,9d B   (%.3f us x %s Gb/s / 8: %s)",
                "    peer response         %,9d B   (%.3f us x %s Gb/s / 8%s)",
                "  held in the buffer      %,9d B   (frames without preamble and gap: %d of every %d B)",
                "  frame that crossed XOFF %,9d B   (held in headroom)",
                "  peer's last frame       %,9d B   (started before the pause took effect)",
                "  total                   %,9d B   (%.1f KiB)"),
                wire, PFC_FRAME_WIRE_BYTES, cable, roundTripPs / 1e6, gbps(rateBps), loop,
                response, responsePs / 1e6, gbps(rateBps), responsePs != responsePs(rateBps) ? ""
                        : String.format(Locale.ROOT, ": %d quanta x 512 bit, %s", responseQuanta(rateBps),
                                responseSource(rateBps)),
                held, frameBytes, wire, frameBytes, frameBytes, total, total / 1024.0);
    }

    /** A rate in Gb/s as a person writes it: 400, 2.5, 0.1 (never rounded to 0). */
    public static String gbps(long rateBps) {
        return new BigDecimal(rateBps).movePointLeft(9).stripTrailingZeros().toPlainString();
    }

    /** How long a pause of {@code quanta} holds a priority at a rate, in picoseconds. */
    public static long pauseDurationPs(int quanta, long rateBps) {
        return Rates.serializationPs(quanta * 64L, rateBps);
    }
}
