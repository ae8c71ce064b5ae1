package rocelab.fabric.switching;

/**
 * Hash functions a switch applies to the RoCEv2 5-tuple (source IP, destination IP, protocol 17, UDP source port,
 * UDP destination port 4791) to pick among equal-cost next hops. Each switch has a seed; giving every switch
 * the same function and seed reproduces ECMP polarization.
 */
public enum EcmpHash {
    /**
     * CRC-32 of the tuple, as switch ASICs compute it, then the switch's seed mixed in non-linearly. (CRC is affine:
     * a seed used as the initial state or appended to the data only XORs a constant into every result, so two
     * tiers would still polarize whatever their seeds; the non-linear mix is what makes a per-switch seed work.)
     */
    CRC32,
    /** XOR-fold of the tuple fields and the seed: cheap, linear, and therefore polarizes whatever the seeds. */
    XOR,
    /** The MurmurHash3 64-bit finaliser over the packed tuple and seed: well mixed. */
    MURMUR3;

    private static final int[] CRC_TABLE = new int[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            CRC_TABLE[n] = c;
        }
    }

    /** Hash of the 5-tuple; non-negative. */
    public int hash(int srcIp, int dstIp, int srcPort, int dstPort, long seed) {
        switch (this) {
            case CRC32: {
                int c = 0xFFFFFFFF;
                c = crcInt(c, srcIp);
                c = crcInt(c, dstIp);
                c = CRC_TABLE[(c ^ 17) & 0xff] ^ (c >>> 8);
                c = crcShort(c, srcPort);
                c = crcShort(c, dstPort);
                return fmix32(~c ^ (int) (seed ^ (seed >>> 32))) & 0x7fffffff;
            }
            case XOR: {
                int x = srcIp ^ dstIp ^ 17 ^ srcPort ^ dstPort ^ (int) seed;
                x ^= x >>> 16;
                x ^= x >>> 8;
                return x & 0x7fffffff;
            }
            default: {
                long k = ((long) srcIp << 32 | (dstIp & 0xffffffffL)) ^ ((long) srcPort << 16 | dstPort) * 0x9E3779B97F4A7C15L;
                long z = k ^ seed;
                z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
                z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
                z ^= z >>> 33;
                return (int) (z >>> 33);
            }
        }
    }

    /** The MurmurHash3 32-bit finaliser: a non-linear bijection. */
    private static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    private static int crcInt(int c, int v) {
        c = CRC_TABLE[(c ^ (v >>> 24)) & 0xff] ^ (c >>> 8);
        c = CRC_TABLE[(c ^ (v >>> 16)) & 0xff] ^ (c >>> 8);
        c = CRC_TABLE[(c ^ (v >>> 8)) & 0xff] ^ (c >>> 8);
        return CRC_TABLE[(c ^ v) & 0xff] ^ (c >>> 8);
    }

    private static int crcShort(int c, int v) {
        c = CRC_TABLE[(c ^ (v >>> 8)) & 0xff] ^ (c >>> 8);
        return CRC_TABLE[(c ^ v) & 0xff] ^ (c >>> 8);
    }
}
