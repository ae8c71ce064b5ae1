package rocelab.fabric.nic;

/**
 * The messages posted on a queue pair, in PSN order: the first PSN, size, starting byte offset and cookie of
 * each, addressed by an absolute message index. The four fields of a message sit next to each other in one
 * array, so the lookups every ACK makes touch one cache line. Grows only when messages are posted faster than
 * they complete.
 */
final class MessageRing {
    private static final int FIELDS = 4;
    private static final int FIRST_PSN = 0;
    private static final int SIZE = 1;
    private static final int START_BYTES = 2;
    private static final int COOKIE = 3;

    // One message to start with: most QPs of a large all-to-all carry exactly one.
    private long[] data = new long[FIELDS];
    private int capacity = 1;
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
        if (tail - head == capacity) {
            grow();
        }
        int s = slot(tail++);
        data[s + FIRST_PSN] = psn;
        data[s + SIZE] = bytes;
        data[s + START_BYTES] = startByteOffset;
        data[s + COOKIE] = messageCookie;
    }

    void removeHead() {
        head++;
    }

    long firstPsn(long index) {
        return data[slot(index) + FIRST_PSN];
    }

    long sizeBytes(long index) {
        return data[slot(index) + SIZE];
    }

    /** Payload bytes posted on the QP before this message. */
    long startBytes(long index) {
        return data[slot(index) + START_BYTES];
    }

    long cookie(long index) {
        return data[slot(index) + COOKIE];
    }

    /** Reads the head message's entry (and this ring's fields on the way) and returns a value made of them. */
    long touchHead() {
        return data[slot(head)];
    }

    private int slot(long index) {
        return (int) (index & (capacity - 1)) * FIELDS;
    }

    private void grow() {
        int newCapacity = capacity * 2;
        long[] grown = new long[newCapacity * FIELDS];
        for (long i = head; i < tail; i++) {
            int from = (int) (i & (capacity - 1)) * FIELDS;
            int to = (int) (i & (newCapacity - 1)) * FIELDS;
            System.arraycopy(data, from, grown, to, FIELDS);
        }
        data = grown;
        capacity = newCapacity;
    }
}
