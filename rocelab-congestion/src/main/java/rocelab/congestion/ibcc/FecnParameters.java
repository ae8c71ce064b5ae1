package rocelab.congestion.ibcc;

/**
 * The switch side of InfiniBand congestion control (IBA Annex A10): an output port's virtual lane whose queue
 * holds more than {@code thresholdBytes} is congested and marks FECN on packets it forwards, one of every
 * {@code markingRate + 1} eligible packets (Marking_Rate: mean packets between marks), never packets smaller
 * than {@code minPacketBytes} (Packet_Size). The standard's Threshold is an abstract 0..15 scale; here it is bytes.
 * A lane whose packets had to wait for credits is a victim of congestion further downstream; it marks only with
 * {@code victimMask} (Victim_Mask).
 */
public record FecnParameters(long thresholdBytes, int markingRate, int minPacketBytes, boolean victimMask) {
    public FecnParameters {
        if (thresholdBytes < 0) {
            throw new IllegalArgumentException("threshold must not be negative");
        }
        if (markingRate < 0 || markingRate > 65_535) {
            throw new IllegalArgumentException("marking-rate must be 0..65535, got " + markingRate);
        }
        if (minPacketBytes < 0) {
            throw new IllegalArgumentException("packet-size must not be negative");
        }
    }

    /** Congested above 32 KiB, every eligible packet marked, packets of any size, victims not marking. */
    public static FecnParameters defaults() {
        return new FecnParameters(32 * 1024, 0, 0, false);
    }
}
