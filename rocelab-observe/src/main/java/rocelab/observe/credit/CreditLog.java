package rocelab.observe.credit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.CreditProbe;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.victim.EventNotes;
import rocelab.observe.victim.FlowPaths;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/**
 * InfiniBand: every wait of a flow's packets for credits, at the transmitter that waited, attributed to the root the
 * lane's last stall was behind, as the credit update that ended it carried it ({@link CreditRoot}: the receiver named
 * what its buffer held, by the packets in it, when it granted the credits). The waits are kept per flow and hop as
 * the PFC log keeps waits behind pauses ({@link FlowWaits}), so the victims are found and told the same way
 * ({@link Victims}): a flow whose waits for credits were rooted off its own round trip.
 *
 * <p>In a parallel run each partition's devices note their waits into {@link EventNotes} of their own, which
 * {@link #replayCaptures} hands to the log after each window in one simulator's order: the log is the same.
 */
public final class CreditLog implements CreditProbe {
    private static final int FIELDS = 11;

    private final FlowWaits flowWaits;
    private final CreditRootNames names;
    private final List<EventNotes> captures = new ArrayList<>();
    private List<FlowRecord> victimsOf;
    private long victimsEndPs;
    private List<Victims.Victim> victims;

    public CreditLog(Network network) {
        this.names = new CreditRootNames(network.topology());
        // A root not known yet names only a port held back by credits from further on (or a buffer whose holder is not
        // known), not where the hold was finally rooted: whether that is on the flow's way is not known, and the flow
        // is neither called a victim of it nor said to have waited on its own way.
        FlowPaths paths = new FlowPaths(network);
        this.flowWaits = new FlowWaits((qp, kind, node, port) -> kind == CreditRoot.UNKNOWN ? FlowWaits.Way.NOT_KNOWN
                : FlowWaits.Way.of(paths.onRoundTrip(qp, node, port)));
        network.routeListener(nowPs -> flowWaits.routesChanged());
    }

    @Override
    public void onCreditWait(long nowPs, int node, int port, int vl, int queuePair, long flowCookie, long psn,
            boolean ack, long fromClockPs, long toClockPs, long root) {
        if (root < 0) {
            // No stall of the lane ended with a root yet (a link brought back up): nothing is known beyond this port.
            flowWaits.add(flowCookie, queuePair, node, port, ack, fromClockPs, toClockPs, CreditRoot.UNKNOWN, node, port,
                    1);
            return;
        }
        flowWaits.add(flowCookie, queuePair, node, port, ack, fromClockPs, toClockPs, CreditRoot.kind(root),
                CreditRoot.node(root), CreditRoot.port(root), CreditRoot.depth(root));
    }

    /** The partitions' notes all replayed (the run is over): their arrays let go, for the outputs. */
    public void trimNotes() {
        EventNotes.trim(captures);
    }

    /** A probe for the devices of one partition of a parallel run: its notes join the log after each window. */
    public CreditProbe forPartition(Simulator partition) {
        EventNotes notes = new EventNotes(partition, FIELDS);
        captures.add(notes);
        return (nowPs, node, port, vl, queuePair, flowCookie, psn, ack, fromClockPs, toClockPs, root) -> {
            int at = notes.next(nowPs);
            long[] n = notes.array();
            n[at] = nowPs;
            n[at + 1] = node;
            n[at + 2] = port;
            n[at + 3] = vl;
            n[at + 4] = queuePair;
            n[at + 5] = flowCookie;
            n[at + 6] = psn;
            n[at + 7] = ack ? 1 : 0;
            n[at + 8] = fromClockPs;
            n[at + 9] = toClockPs;
            n[at + 10] = root;
        };
    }

    /** Takes every partition's notes of the window of {@code parity}, in one simulator's order, and empties them. */
    public void replayCaptures(int parity) {
        EventNotes.replay(captures, parity, (n, at) -> onCreditWait(n[at], (int) n[at + 1], (int) n[at + 2],
                (int) n[at + 3], (int) n[at + 4], n[at + 5], n[at + 6], n[at + 7] != 0, n[at + 8], n[at + 9],
                n[at + 10]));
    }

    /** Every flow's waits for credits, at the roots they were behind. */
    public FlowWaits flowWaits() {
        return flowWaits;
    }

    /** The words for roots. */
    public CreditRootNames names() {
        return names;
    }

    /** The words for a root the flow waited behind. */
    public String rootName(FlowWaits.Root root) {
        return names.root(root.kind(), root.node(), root.port());
    }

    /**
     * {@link Victims#find} for these flows and this end, made once and shared (summary.json, the report and the
     * printed summary ask for them, the first two at the same time). Unmodifiable.
     */
    public synchronized List<Victims.Victim> victims(List<FlowRecord> flows, long endPs) {
        if (victims == null || victimsOf != flows || victimsEndPs != endPs) {
            victims = Collections.unmodifiableList(Victims.find(flowWaits, flows, endPs));
            victimsOf = flows;
            victimsEndPs = endPs;
        }
        return victims;
    }

    /**
     * How far a root was from where the flow waited behind it: {@code 1 credit hop away}, or over several hops of its
     * way, {@code 1-3 credit hops away}.
     */
    public static String away(FlowWaits.Root root) {
        return (root.minHops() == root.maxHops() ? Integer.toString(root.minHops())
                : root.minHops() + "-" + root.maxHops()) + " credit hop" + (root.maxHops() == 1 ? "" : "s") + " away";
    }

    /** The credit log's words for victims: waits for credits, credit hops, HCAs, and its names of roots. */
    public Victims.Wording wording() {
        return new Victims.Wording() {
            @Override
            public String waited() {
                return "for credits";
            }

            @Override
            public String away(FlowWaits.Root root) {
                return CreditLog.away(root);
            }

            @Override
            public String nic() {
                return "HCA";
            }

            @Override
            public String rootName(FlowWaits.Root root) {
                return CreditLog.this.rootName(root);
            }
        };
    }
}
