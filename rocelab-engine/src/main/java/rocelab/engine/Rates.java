package rocelab.engine;

/** Serialisation arithmetic: rates are bits per second, sizes bytes, time picoseconds. */
public final class Rates {
    private static final long BITS_PS_PER_BYTE_SECOND = 8L * Time.PS_PER_S;

    private Rates() {}

    /** Time to put {@code bytes} on a link of {@code rateBps}, rounded up to the next picosecond. */
    public static long serializationPs(long bytes, long rateBps) {
        long bits = Math.multiplyExact(bytes, BITS_PS_PER_BYTE_SECOND);
        return (bits + rateBps - 1) / rateBps;
    }

    /** Picoseconds per byte when that is an integer (25..800 Gb/s steps), otherwise -1. */
    public static long exactPsPerByte(long rateBps) {
        return BITS_PS_PER_BYTE_SECOND % rateBps == 0 ? BITS_PS_PER_BYTE_SECOND / rateBps : -1;
    }
}
