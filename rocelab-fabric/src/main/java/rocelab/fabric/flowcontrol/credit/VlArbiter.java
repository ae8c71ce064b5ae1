package rocelab.fabric.flowcontrol.credit;

import java.util.List;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.port.TransmitScheduler;

/**
 * InfiniBand VL arbitration (IBA vol. 1 §7.6.9): a high- and a low-priority table of (lane, weight) entries,
 * each served weighted round robin, an entry sending up to weight x 64 bytes (a packet once started is finished)
 * before the next entry; the high table goes first, but after Limit of High-Priority x 4096 bytes of it, one
 * low-priority packet may go if one waits. A lane in neither table never transmits (the reader refuses maps that
 * send traffic there). Management (VL15) and flow-control packets bypass arbitration.
 */
public final class VlArbiter implements TransmitScheduler {
    private static final int WEIGHT_UNIT = 64;
    private static final long HIGH_LIMIT_UNIT = 4096;

    private final Table high;
    private final Table low;
    private final long highLimitBytes;
    private long highSinceLow;

    public VlArbiter(InfinibandParameters params) {
        this.high = new Table(params.high());
        this.low = new Table(params.low());
        this.highLimitBytes = params.highLimit() == InfinibandParameters.UNLIMITED_HIGH ? Long.MAX_VALUE
                : params.highLimit() * HIGH_LIMIT_UNIT;
    }

    @Override
    public int nextClass(PacketFifo[] queues, int readyMask) {
        boolean highReady = (readyMask & high.mask) != 0;
        boolean lowReady = (readyMask & low.mask) != 0;
        if (highReady && !(lowReady && highSinceLow >= highLimitBytes)) {
            int vl = high.next(queues, readyMask);
            highSinceLow += queues[vl].peek().frameBytes();
            return vl;
        }
        if (lowReady) {
            highSinceLow = 0;
            return low.next(queues, readyMask);
        }
        // Unreachable with a validated configuration; serve something rather than stall the port.
        return Integer.numberOfTrailingZeros(readyMask);
    }

    /** One arbitration table and its round-robin position. */
    private static final class Table {
        private final int[] vl;
        private final long[] quota;
        private final int mask;
        private int index;
        private long left;

        Table(List<InfinibandParameters.ArbitrationEntry> entries) {
            vl = new int[entries.size()];
            quota = new long[entries.size()];
            int m = 0;
            for (int i = 0; i < vl.length; i++) {
                vl[i] = entries.get(i).vl();
                quota[i] = (long) entries.get(i).weight() * WEIGHT_UNIT;
                m |= quota[i] > 0 ? 1 << vl[i] : 0;
            }
            mask = m;
            left = vl.length > 0 ? quota[0] : 0;
        }

        /** Called only when a lane of this table is ready: at most one full turn over the entries. */
        int next(PacketFifo[] queues, int ready) {
            for (int step = 0; step <= vl.length; step++) {
                int lane = vl[index];
                if (left > 0 && (ready & (1 << lane)) != 0) {
                    left -= queues[lane].peek().frameBytes();
                    return lane;
                }
                index = index + 1 == vl.length ? 0 : index + 1;
                left = quota[index];
            }
            return Integer.numberOfTrailingZeros(ready & mask);
        }
    }
}
