package rocelab.fabric.nic;

/**
 * The messages posted on a queue pair, in PSN order: the first PSN, size and cookie of each, addressed by an
 * absolute message index. Grows only when messages are posted faster than they complete.
 */
final class MessageRing {
    private long[] firstPsn = new long[4];
    private long[] sizeBytes = new long[4];
    private long[] startBytes = new long[4];
    private long[] cookie = new long[4];
    private long head;
    private long tail;

    long head() {
        return head;
    }

    long tail() {
        return tail;
    }

    boolean isEmpty() {
        return head == tail;
    }

    void add(long psn, long bytes, long startByteOffset, long messageCookie) {
        if (tail - head == firstPsn.length) {
            grow();
        }
        int s = slot(tail++);
        firstPsn[s] = psn;
        sizeBytes[s] = bytes;
        startBytes[s] = startByteOffset;
        cookie[s] = messageCookie;
    }

    void removeHead() {
        head++;
    }

    long firstPsn(long index) {
        return firstPsn[slot(index)];
    }

    long sizeBytes(long index) {
        return sizeBytes[slot(index)];
    }

    /** Payload bytes posted on the QP before this message. */
    long startBytes(long index) {
        return startBytes[slot(index)];
    }

    long cookie(long index) {
        return cookie[slot(index)];
    }

    private int slot(long index) {
        return (int) (index & (firstPsn.length - 1));
    }

    private void grow() {
        int n = firstPsn.length;
        long[] f = new long[n * 2];
        long[] z = new long[n * 2];
        long[] b = new long[n * 2];
        long[] c = new long[n * 2];
        for (long i = head; i < tail; i++) {
            int from = (int) (i & (n - 1));
            int to = (int) (i & (2 * n - 1));
            f[to] = firstPsn[from];
            z[to] = sizeBytes[from];
            b[to] = startBytes[from];
            c[to] = cookie[from];
        }
        firstPsn = f;
        sizeBytes = z;
        startBytes = b;
        cookie = c;
    }
}
