package rocelab.observe.pcap;

/** Network byte order writes into a frame being built: each returns the index after what it wrote. */
final class BigEndian {
    private BigEndian() {}

    static int u16(byte[] f, int i, int v) {
        f[i] = (byte) (v >>> 8);
        f[i + 1] = (byte) v;
        return i + 2;
    }

    static int u24(byte[] f, int i, int v) {
        f[i] = (byte) (v >>> 16);
        f[i + 1] = (byte) (v >>> 8);
        f[i + 2] = (byte) v;
        return i + 3;
    }

    static int u32(byte[] f, int i, int v) {
        f[i] = (byte) (v >>> 24);
        f[i + 1] = (byte) (v >>> 16);
        f[i + 2] = (byte) (v >>> 8);
        f[i + 3] = (byte) v;
        return i + 4;
    }
}
