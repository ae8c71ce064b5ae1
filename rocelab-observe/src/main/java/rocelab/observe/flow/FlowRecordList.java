package rocelab.observe.flow;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The flows of a finished run as a read-only list whose records are made on each read, from state that no longer
 * changes: safe to read from several threads at once (the output writers do). A run of millions of flows then holds
 * no object per flow while its outputs are written, and {@link rocelab.observe.RunResult} keeps such a list as it is
 * instead of copying it into records.
 */
public abstract class FlowRecordList extends AbstractList<FlowRecord> implements RandomAccess {
    protected FlowRecordList() {}

    /**
     * Packet level: the congestion notifications flow {@code id}'s QP's sender heard during the flow's life, by the
     * switch port whose mark caused each: (node, port, count, held) quadruplets, most first (node -1: not known;
     * held: those on packets a PFC pause held at that port); null when not known (flow level, a flow never started,
     * or flows read back from files).
     */
    public long[] notificationSources(int id) {
        return null;
    }

    /** {@link #notificationSources} of {@code flows} if it is such a list, else null. */
    public static long[] notificationSources(List<FlowRecord> flows, int id) {
        return flows instanceof FlowRecordList l ? l.notificationSources(id) : null;
    }
}
