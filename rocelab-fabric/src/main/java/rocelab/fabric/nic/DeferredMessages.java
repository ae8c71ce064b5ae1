package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * One partition's completion notifications of a window, kept to be handed to the workload after the window: in a
 * partitioned run the RNICs of every partition notify at once, and the workload (one object) hears them on one
 * thread, between windows, in time order ({@link #replay}). This is only equivalent to hearing them at once when
 * what the workload does with a notification schedules nothing (traffic whose tasks wait for nothing): the run
 * decides that before it is partitioned. A workload whose dependencies stay inside partitions hears its notifications
 * at once instead, in its driver's lane of the notifying partition.
 */
public final class DeferredMessages {
    private static final byte DELIVERED = 0;
    private static final byte COMPLETED = 1;
    private static final byte ERROR = 2;
    private static final byte STARTED = 3;

    private long[] time = new long[256];
    private long[] cookie = new long[256];
    private int[] queuePair = new int[256];
    private byte[] kind = new byte[256];
    private MessageListener[] target = new MessageListener[256];
    private int size;
    private int read;

    /** The listener QP {@code from}'s sender side and {@code to}'s receiver side notify through. */
    public static MessageListener between(MessageListener listener, DeferredMessages senderSide,
            DeferredMessages receiverSide) {
        return new MessageListener() {
            @Override
            public void onMessageDelivered(long nowPs, int qp, long c) {
                receiverSide.add(nowPs, DELIVERED, qp, c, listener);
            }

            @Override
            public void onMessageCompleted(long nowPs, int qp, long c) {
                senderSide.add(nowPs, COMPLETED, qp, c, listener);
            }

            @Override
            public void onMessageStarted(long nowPs, int qp, long c) {
                senderSide.add(nowPs, STARTED, qp, c, listener);
            }

            @Override
            public void onQueuePairError(long nowPs, int qp) {
                senderSide.add(nowPs, ERROR, qp, 0, listener);
            }
        };
    }

    private void add(long nowPs, byte k, int qp, long c, MessageListener l) {
        if (size == time.length) {
            int n = size * 2;
            time = Arrays.copyOf(time, n);
            cookie = Arrays.copyOf(cookie, n);
            queuePair = Arrays.copyOf(queuePair, n);
            kind = Arrays.copyOf(kind, n);
            target = Arrays.copyOf(target, n);
        }
        time[size] = nowPs;
        kind[size] = k;
        queuePair[size] = qp;
        cookie[size] = c;
        target[size] = l;
        size++;
    }

    /**
     * Hands every partition's notifications to their listeners, earliest first (each partition's are in time
     * order already; equal times go partition by partition), and empties the buffers.
     */
    public static void replay(DeferredMessages[] parts) {
        while (true) {
            DeferredMessages best = null;
            for (DeferredMessages d : parts) {
                if (d.read < d.size && (best == null || d.time[d.read] < best.time[best.read])) {
                    best = d;
                }
            }
            if (best == null) {
                break;
            }
            best.deliver(best.read++);
        }
        for (DeferredMessages d : parts) {
            Arrays.fill(d.target, 0, d.size, null);
            d.size = 0;
            d.read = 0;
        }
    }

    private void deliver(int i) {
        switch (kind[i]) {
            case DELIVERED -> target[i].onMessageDelivered(time[i], queuePair[i], cookie[i]);
            case COMPLETED -> target[i].onMessageCompleted(time[i], queuePair[i], cookie[i]);
            case STARTED -> target[i].onMessageStarted(time[i], queuePair[i], cookie[i]);
            default -> target[i].onQueuePairError(time[i], queuePair[i]);
        }
    }
}
