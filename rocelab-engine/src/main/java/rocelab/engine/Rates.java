package rocelab.engine;

/** Serialisation arithmetic: rates are bits per second, sizes bytes, time picoseconds. */
public final class Rates {
    private static final long BITS_PS_PER_BYTE_SECOND = 8L * Time.PS_PER_S;
    /** Below this many bytes, bytes x 8e12 fits in a long. */
    private static final long MAX_EXACT_BYTES = Long.MAX_VALUE / BITS_PS_PER_BYTE_SECOND;

    private Rates() {}

    /**
     * Time to put {@code bytes} on a link of {@code rateBps}, rounded up to the next picosecond; {@link Long#MAX_VALUE}
     * (never, within the ~106 days a simulation can represent) when it is longer than that.
     */
    public static long serializationPs(long bytes, long rateBps) {
        if (bytes < MAX_EXACT_BYTES) {
            long bitPs = bytes * BITS_PS_PER_BYTE_SECOND;
            return (bitPs + rateBps - 1) / rateBps;
        }
        // Large transfers (whole messages, not frames): exact in 128 bits.
        java.math.BigInteger[] qr = java.math.BigInteger.valueOf(bytes)
                .multiply(java.math.BigInteger.valueOf(BITS_PS_PER_BYTE_SECOND))
                .divideAndRemainder(java.math.BigInteger.valueOf(rateBps));
        java.math.BigInteger ps = qr[0].add(qr[1].signum() > 0 ? java.math.BigInteger.ONE : java.math.BigInteger.ZERO);
        return ps.bitLength() < Long.SIZE ? ps.longValue() : Long.MAX_VALUE;
    }

    /** Picoseconds per byte when that is an integer (25..800 Gb/s steps), otherwise -1. */
    public static long exactPsPerByte(long rateBps) {
        return BITS_PS_PER_BYTE_SECOND % rateBps == 0 ? BITS_PS_PER_BYTE_SECOND / rateBps : -1;
    }
}
