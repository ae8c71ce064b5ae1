package rocelab.workload.flow;

import java.util.Arrays;
import rocelab.workload.graph.TaskGraph;

/**
 * One group's copy of tasks for {@link IdealSpans}, written first as records and added to the copy's graph when it is
 * finished, so that a group whose copy is the same as an earlier group's, record for record, can be told apart by its
 * {@link Key} and left out. In a record a task's dependencies and the group's ends are numbered from the group's first
 * copy, and its connections by first use in the group: two groups with the same records are the same graph shifted,
 * which is all a group's bound sees. A group longer than {@link #KEYED_INTS} (an iteration of millions of tasks) has no
 * key: its records are added as they are written, and never held whole.
 */
final class CopyRecipe {
    /** Records above this many ints are added as they come: such a group is not compared with others. */
    static final int KEYED_INTS = 1 << 16;

    private static final int FLOW = 0;
    private static final int COMPUTE = 1;
    private static final int DELAY = 2;
    private static final int JOIN = 3;

    private final TaskGraph sub;
    private int[] records = new int[256];
    /** Ints written and not yet added to {@link #sub}. */
    private int length;
    /** The group's copies so far: the next copy's number. */
    private int copies;
    /** Whether the group has outgrown a key: records are added as they are written. */
    private boolean streaming;
    /** The copy graph's task id of the group's first copy. */
    private int first;
    /**
     * The graph's connection to the group's number for it, by first use (-1: none yet), and the connections numbered:
     * reset after each group. An array rather than a map: a job's iteration has millions of connections.
     */
    private final int[] connectionNumber;
    private int[] numbered = new int[16];
    private int numberedCount;
    /** The group's connection numbers to the copy graph's connections, made as records are added. */
    private int[] subConnection = new int[16];
    private int subConnections;

    /** Copies into {@code sub} from a graph of {@code connections} connections. */
    CopyRecipe(TaskGraph sub, int connections) {
        this.sub = sub;
        this.connectionNumber = new int[connections];
        Arrays.fill(connectionNumber, -1);
    }

    /** A group begins: its copies are numbered from 0, the next task of the copy graph. */
    void start() {
        length = 0;
        copies = 0;
        streaming = false;
        first = sub.taskCount();
        for (int k = 0; k < numberedCount; k++) {
            connectionNumber[numbered[k]] = -1;
        }
        numberedCount = 0;
        subConnections = 0;
    }

    /**
     * A transfer (a flow, or an NVLink transfer where the copy graph's local links say so) after the first {@code n}
     * of {@code after} (copy numbers of this group, {@link TaskGraph#acked} of them, or {@link TaskGraph#NONE}), on
     * the graph's {@code connection} (-1: its own); returns its copy number.
     */
    int flow(int src, int dst, long bytes, int dscp, int connection, int[] after, int n) {
        int c = connection < 0 ? -1 : connectionNumber[connection];
        if (connection >= 0 && c < 0) {
            if (numberedCount == numbered.length) {
                numbered = Arrays.copyOf(numbered, 2 * numberedCount);
            }
            numbered[numberedCount] = connection;
            c = numberedCount++;
            connectionNumber[connection] = c;
        }
        room(8 + n);
        records[length++] = FLOW;
        records[length++] = src;
        records[length++] = dst;
        records[length++] = (int) (bytes >>> 32);
        records[length++] = (int) bytes;
        records[length++] = dscp;
        records[length++] = c;
        return deps(after, n);
    }

    int compute(long durationPs, int owner, int[] after, int n) {
        return timed(COMPUTE, durationPs, owner, after, n);
    }

    int delay(long durationPs, int owner, int[] after, int n) {
        return timed(DELAY, durationPs, owner, after, n);
    }

    int join(int owner, int[] after, int n) {
        room(3 + n);
        records[length++] = JOIN;
        records[length++] = owner;
        return deps(after, n);
    }

    private int timed(int kind, long durationPs, int owner, int[] after, int n) {
        room(5 + n);
        records[length++] = kind;
        records[length++] = owner;
        records[length++] = (int) (durationPs >>> 32);
        records[length++] = (int) durationPs;
        return deps(after, n);
    }

    private int deps(int[] after, int n) {
        records[length++] = n;
        System.arraycopy(after, 0, records, length, n);
        length += n;
        if (!streaming && length > KEYED_INTS) {
            streaming = true;
        }
        if (streaming) {
            add();
        }
        return copies++;
    }

    private void room(int ints) {
        if (length + ints > records.length) {
            records = Arrays.copyOf(records, Math.max(length + ints, 2 * records.length));
        }
    }

    /**
     * The group's records with its {@code ends} (copy numbers), to compare with other groups', or null when the group
     * outgrew a key.
     */
    Key key(int[] ends) {
        return streaming ? null : new Key(Arrays.copyOf(records, length), ends.clone());
    }

    /** The group is kept: whatever is not yet in the copy graph is added. */
    void finish() {
        add();
    }

    /** The group is left out (an earlier one has its copy): nothing of it is added. */
    void drop() {
        if (streaming) {
            throw new IllegalStateException("a group added as it was written cannot be dropped");
        }
        length = 0;
    }

    /** Adds the records written since the last add to the copy graph, copy numbers made task ids. */
    private void add() {
        int i = 0;
        while (i < length) {
            int kind = records[i++];
            int t;
            switch (kind) {
                case FLOW -> {
                    int src = records[i++];
                    int dst = records[i++];
                    long bytes = ((long) records[i++] << 32) | (records[i++] & 0xFFFFFFFFL);
                    int dscp = records[i++];
                    int c = records[i++];
                    int[] after = after(i);
                    i += 1 + records[i];
                    t = sub.flow(src, dst, bytes, dscp, subConnection(c), 0, after);
                }
                case COMPUTE, DELAY -> {
                    int owner = records[i++];
                    long duration = ((long) records[i++] << 32) | (records[i++] & 0xFFFFFFFFL);
                    int[] after = after(i);
                    i += 1 + records[i];
                    t = kind == COMPUTE ? sub.compute(duration, owner, after) : sub.delay(duration, owner, after);
                }
                case JOIN -> {
                    int owner = records[i++];
                    int[] after = after(i);
                    i += 1 + records[i];
                    t = sub.join(owner, after);
                }
                default -> throw new IllegalStateException("record kind " + kind);
            }
            assert t >= first;
        }
        length = 0;
    }

    /** The dependencies of the record whose count is at {@code at}, as task ids of the copy graph. */
    private int[] after(int at) {
        int[] out = new int[records[at]];
        for (int j = 0; j < out.length; j++) {
            int d = records[at + 1 + j];
            out[j] = d == TaskGraph.NONE ? d
                    : TaskGraph.isAck(d) ? TaskGraph.acked(first + TaskGraph.target(d)) : first + d;
        }
        return out;
    }

    /** The copy graph's connection for the group's connection {@code c} (-1: none), made when first added. */
    private int subConnection(int c) {
        if (c < 0) {
            return -1;
        }
        while (subConnections <= c) {
            if (subConnections == subConnection.length) {
                subConnection = Arrays.copyOf(subConnection, 2 * subConnections);
            }
            subConnection[subConnections++] = sub.newConnection();
        }
        return subConnection[c];
    }

    /** A group's records and ends: equal keys, equal copies. */
    static final class Key {
        private final int[] records;
        private final int[] ends;
        private final int hash;

        Key(int[] records, int[] ends) {
            this.records = records;
            this.ends = ends;
            this.hash = 31 * Arrays.hashCode(records) + Arrays.hashCode(ends);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && Arrays.equals(records, k.records)
                    && Arrays.equals(ends, k.ends);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
