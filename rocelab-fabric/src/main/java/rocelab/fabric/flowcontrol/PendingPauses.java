package rocelab.fabric.flowcontrol;

/**
 * PFC frames a transmitter has received and not yet acted on (it acts after its pause response time), oldest
 * first. Every frame waits the same delay, so they act in the order they arrived: a FIFO, whose head is the frame
 * the next response wake-up is for. It grows only when more frames wait than it holds, which pauses make rare.
 */
public final class PendingPauses {
    private long[] sentPs = new long[8];
    private int[] frames = new int[8];
    private int head;
    private int size;

    /** A frame for {@code priority} with {@code quanta}, which the peer sent at {@code sent}. */
    public void add(int priority, int quanta, long sent) {
        if (size == frames.length) {
            grow();
        }
        int i = (head + size) % frames.length;
        frames[i] = quanta << 3 | priority;
        sentPs[i] = sent;
        size++;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The oldest frame's priority. */
    public int priority() {
        return frames[head] & 7;
    }

    /** The oldest frame's pause time in quanta (0: XON). */
    public int quanta() {
        return frames[head] >>> 3;
    }

    /** When the peer sent the oldest frame. */
    public long sentPs() {
        return sentPs[head];
    }

    /** Drops the oldest frame (it has been acted on). */
    public void poll() {
        head = (head + 1) % frames.length;
        size--;
    }

    private void grow() {
        long[] s = new long[frames.length * 2];
        int[] f = new int[frames.length * 2];
        for (int k = 0; k < size; k++) {
            s[k] = sentPs[(head + k) % frames.length];
            f[k] = frames[(head + k) % frames.length];
        }
        sentPs = s;
        frames = f;
        head = 0;
    }
}
