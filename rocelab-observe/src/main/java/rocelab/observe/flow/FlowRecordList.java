package rocelab.observe.flow;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The flows of a finished run as a read-only list whose records are made on each read, from state that no longer
 * changes: safe to read from several threads at once (the output writers do). A run of millions of flows then holds
 * no object per flow while its outputs are written, and {@link rocelab.observe.RunResult} keeps such a list as it is
 * instead of copying it into records.
 */
public abstract class FlowRecordList extends AbstractList<FlowRecord> implements RandomAccess {
    protected FlowRecordList() {}
}
