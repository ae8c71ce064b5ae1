package rocelab.engine;

import java.math.BigInteger;

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
            long ps = bitPs / rateBps;
            return bitPs % rateBps == 0 ? ps : ps + 1; // not (bitPs + rate - 1) / rate, which overflows at ~12 Tb/s
        }
        // bytes x 8e12 = rate x (bytes x q) + bytes x r with q, r the quotient and remainder of 8e12 / rate, so the
        // time is bytes x q plus bytes x r / rate rounded up: exact in longs while bytes x r fits (a pause of 65535
        // quanta, 4 MB, at any rate up to ~2 Tb/s), without the allocation of the 128-bit path below.
        long q = BITS_PS_PER_BYTE_SECOND / rateBps;
        long r = BITS_PS_PER_BYTE_SECOND % rateBps;
        if (Math.multiplyHigh(bytes, r) == 0 && bytes * r >= 0 && Math.multiplyHigh(bytes, q) == 0 && bytes * q >= 0) {
            long whole = bytes * q;
            long rest = (bytes * r) / rateBps + ((bytes * r) % rateBps == 0 ? 0 : 1);
            return whole <= Long.MAX_VALUE - rest ? whole + rest : Long.MAX_VALUE;
        }
        // Whole messages at a rate that does not divide 8e12 (NVLink's 3.6 Tb/s: tens of millions of these in the
        // ideal network's port-work sums of a large job): a quotient estimated in doubles, then corrected to the
        // exact one with the remainder bytes x 8e12 - q x rate computed in 128 bits, without allocation. Below 2^52
        // ps the estimate is off by a unit or two; anything the correction cannot settle takes the path below.
        double estimate = (double) bytes * BITS_PS_PER_BYTE_SECOND / rateBps;
        if (estimate < 0x1p52) {
            long quotient = (long) estimate;
            long hi = Math.multiplyHigh(bytes, BITS_PS_PER_BYTE_SECOND);
            long lo = bytes * BITS_PS_PER_BYTE_SECOND;
            long productLo = quotient * rateBps;
            long restLo = lo - productLo;
            long restHi = hi - Math.multiplyHigh(quotient, rateBps) - (Long.compareUnsigned(lo, productLo) < 0 ? 1 : 0);
            if (restHi == restLo >> 63) { // the remainder fits in a long
                long rest = restLo;
                for (int step = 0; step < 4 && rest < 0; step++) {
                    quotient--;
                    rest += rateBps;
                }
                for (int step = 0; step < 4 && rest >= rateBps; step++) {
                    quotient++;
                    rest -= rateBps;
                }
                if (rest >= 0 && rest < rateBps) {
                    return rest == 0 ? quotient : quotient + 1;
                }
            }
        }
        // Anything else (times beyond 2^52 ps, about 75 minutes): exact in 128 bits.
        BigInteger[] qr = BigInteger.valueOf(bytes)
                .multiply(BigInteger.valueOf(BITS_PS_PER_BYTE_SECOND))
                .divideAndRemainder(BigInteger.valueOf(rateBps));
        BigInteger ps = qr[0].add(qr[1].signum() > 0 ? BigInteger.ONE : BigInteger.ZERO);
        return ps.bitLength() < Long.SIZE ? ps.longValue() : Long.MAX_VALUE;
    }

    /**
     * {@link #serializationPs} remembering its last rate as the fraction 8e12 / rate in lowest terms, num / den: the
     * time is then ceil(bytes x num / den), one multiplication (where the rate divides 8e12, a whole number of
     * picoseconds per byte, 25..800 Gb/s steps: den is 1) or one multiplication and one division by a small den
     * (NVLink's 3.6 Tb/s: 20 / 9), instead of the general path's long divisions or its 128-bit correction; the same
     * to the picosecond while bytes x num fits in a long. For a caller that times many messages at one rate after
     * another (the flow level's ports, the ideal bound's NVLink transfers); one per thread, it is not shared.
     */
    public static final class Memo {
        private long rateBps;
        private long numerator;
        private long denominator;
        private long maxBytes = -1;

        public long serializationPs(long bytes, long rate) {
            if (rate != rateBps) {
                remember(rate);
            }
            if (bytes < 0 || bytes > maxBytes) {
                return Rates.serializationPs(bytes, rate);
            }
            long bitPs = bytes * numerator;
            if (denominator == 1) {
                return bitPs;
            }
            long ps = bitPs / denominator;
            return ps * denominator == bitPs ? ps : ps + 1;
        }

        private void remember(long rate) {
            rateBps = rate;
            if (rate <= 0) {
                maxBytes = -1; // the general path's answer, whatever it is
                return;
            }
            long g = gcd(BITS_PS_PER_BYTE_SECOND, rate);
            numerator = BITS_PS_PER_BYTE_SECOND / g;
            denominator = rate / g;
            maxBytes = Long.MAX_VALUE / numerator;
        }

        private static long gcd(long a, long b) {
            while (b != 0) {
                long r = a % b;
                a = b;
                b = r;
            }
            return a;
        }
    }

    /** Picoseconds per byte when that is an integer (25..800 Gb/s steps), otherwise -1. */
    public static long exactPsPerByte(long rateBps) {
        return BITS_PS_PER_BYTE_SECOND % rateBps == 0 ? BITS_PS_PER_BYTE_SECOND / rateBps : -1;
    }
}
