package rocelab.workload.flow;

import java.util.Arrays;
import rocelab.engine.EventHandler;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.engine.Time;

/**
 * Flows as fluids sharing capacities max-min fairly. Each flow crosses a set of resources (directed links, RNIC
 * ports, NVLink ports; a spraying flow crosses some of them with a weight below one) and may have a rate cap of its
 * own; at every arrival and departure the rates are the max-min fair allocation by progressive filling: all flows
 * not yet limited grow at the same rate until a resource is full, whose flows then keep that rate, and so on.
 *
 * <p>Only the connected component of flows and resources that an arrival or departure touches is recomputed, so the
 * cost grows with the flows that share a bottleneck with it, not with all flows; arrivals and departures at the same
 * picosecond are recomputed once. A flow whose rate did not change keeps its completion event.
 *
 * <p>Time stays integer picoseconds: work is wire bits, rates are doubles of bits per second, and a completion is
 * scheduled at the next whole picosecond at or after the fluid end (rounded up, so the model never finishes early).
 * A flow that keeps one integral rate from start to end ends exactly {@link Rates#serializationPs} after its start.
 */
public final class FluidNetwork implements EventHandler {
    /**
     * Hears that a flow has put its last bit on its path (delivery follows after the path's fixed latency); {@code tag}
     * is what the flow was started with.
     */
    public interface Listener {
        void sent(long nowPs, int tag);
    }

    private static final int COMPLETE = 1;
    private static final int RECOMPUTE = 2;
    /** A new rate this close to the old one keeps the old rate and its completion event. */
    private static final double SAME_RATE = 1e-12;

    private final Simulator sim;
    private final int handlerId;
    private final Listener listener;
    private final double[] capacityBps;
    /**
     * The flows on each resource, in the order kept (appended, removed by moving the last into the gap): resource r's
     * count at {@code block[BLOCK * r]} and its first {@code BLOCK - 1} flows after it, the rest in
     * {@code overflow[r]}. Most resources carry a flow or two, so an arrival, a departure and the recomputation's walk
     * read one cache line per resource instead of a count and a list object of its own.
     */
    private static final int BLOCK = 4;
    private final int[] block;
    private int[][] overflow;

    // Per flow slot (a slot is reused once its flow has left, so these grow with the flows in flight, not all flows).
    private int[][] resources;
    private double[][] weights;
    private int[][] positions;
    private double[] capBps;
    private double[] remainingBits;
    private double[] rateBps;
    private long[] updatedPs;
    private int[] version;
    private boolean[] active;
    private int[] tag;
    private int[] flowMark;
    private double[] newRate;
    private boolean[] frozen;
    private int slots;
    private int[] freeSlots = new int[16];
    private int freeCount;

    private final int[] resourceMark;
    private int epoch;
    private final int[] dirty;
    private int dirtyCount;
    private boolean recomputePending;
    private int[] compResources = new int[64];
    private int[] compFlows = new int[64];
    private final double[] used;
    private final double[] unfrozenWeight;
    private final int[] resourceVersion;
    private double[] heapKey = new double[64];
    private int[] heapResource = new int[64];
    private int[] heapVersion = new int[64];
    private int heapSize;
    private int[] capped = new int[64];

    /**
     * Whether everything since the last recomputation was a departure, and the lowest rate of the flows that left:
     * then the flows of the component slower than that keep their rates (see {@link #recompute}).
     */
    private boolean onlyDepartures = true;
    /** Whether a flow alone on its resources gets its rate in closed form ({@link #aloneRate}), not by the filling. */
    private boolean fillAloneDirectly = true;
    private long flowsAlone;
    private final Rates.Memo serialization = new Rates.Memo();
    private double departedRateMin = Double.POSITIVE_INFINITY;

    private int activeFlows;
    private long recomputes;
    private long flowsKept;
    private long componentFlowsVisited;
    private long departures;

    /**
     * @param capacityBps the capacity of each resource, in wire bits per second
     * @param initialFlows room for this many flows in flight at first (it grows)
     */
    public FluidNetwork(Simulator sim, double[] capacityBps, int initialFlows, Listener listener) {
        this.sim = sim;
        this.handlerId = sim.register(this);
        this.listener = listener;
        this.capacityBps = capacityBps.clone();
        int r = capacityBps.length;
        this.block = new int[BLOCK * r];
        this.overflow = new int[r][];
        this.resourceMark = new int[r];
        this.dirty = new int[r];
        this.used = new double[r];
        this.unfrozenWeight = new double[r];
        this.resourceVersion = new int[r];
        grow(Math.max(16, initialFlows));
    }

    private void grow(int n) {
        resources = Arrays.copyOf(resources == null ? new int[0][] : resources, n);
        weights = Arrays.copyOf(weights == null ? new double[0][] : weights, n);
        positions = Arrays.copyOf(positions == null ? new int[0][] : positions, n);
        capBps = Arrays.copyOf(capBps == null ? new double[0] : capBps, n);
        remainingBits = Arrays.copyOf(remainingBits == null ? new double[0] : remainingBits, n);
        rateBps = Arrays.copyOf(rateBps == null ? new double[0] : rateBps, n);
        updatedPs = Arrays.copyOf(updatedPs == null ? new long[0] : updatedPs, n);
        version = Arrays.copyOf(version == null ? new int[0] : version, n);
        active = Arrays.copyOf(active == null ? new boolean[0] : active, n);
        tag = Arrays.copyOf(tag == null ? new int[0] : tag, n);
        flowMark = Arrays.copyOf(flowMark == null ? new int[0] : flowMark, n);
        newRate = Arrays.copyOf(newRate == null ? new double[0] : newRate, n);
        frozen = Arrays.copyOf(frozen == null ? new boolean[0] : frozen, n);
    }

    /**
     * Starts a flow of {@code workBits} over {@code flowResources} (distinct), each crossed with its weight (null:
     * all one), at most at {@code flowCapBps} (infinity: no cap of its own); returns the flow's slot, which names it
     * until the listener hears it was sent with {@code flowTag}.
     */
    public int start(long nowPs, int flowTag, int[] flowResources, double[] flowWeights, double flowCapBps,
            double workBits) {
        int flow;
        if (freeCount > 0) {
            flow = freeSlots[--freeCount];
        } else {
            if (slots == active.length) {
                grow(slots * 2);
            }
            flow = slots++;
        }
        tag[flow] = flowTag;
        active[flow] = true;
        activeFlows++;
        remainingBits[flow] = workBits;
        rateBps[flow] = 0;
        updatedPs[flow] = nowPs;
        capBps[flow] = flowCapBps;
        attach(flow, flowResources, flowWeights);
        if (flowResources.length == 0) {
            // Nothing to share: the flow moves at its own cap, alone.
            settle(nowPs, flow, flowCapBps);
        }
        return flow;
    }

    /** Moves a running flow onto other resources (a reroute), keeping what it has sent. */
    public void reroute(long nowPs, int flow, int[] flowResources, double[] flowWeights, double flowCapBps) {
        if (!active[flow]) {
            return;
        }
        advance(flow, nowPs);
        detach(flow);
        capBps[flow] = flowCapBps;
        attach(flow, flowResources, flowWeights);
        if (flowResources.length == 0) {
            settle(nowPs, flow, flowCapBps);
        }
    }

    /** The resources a running flow crosses now (null when it is not running). */
    public int[] resourcesOf(int flow) {
        return running(flow) ? resources[flow] : null;
    }

    public boolean running(int flow) {
        return flow < slots && active[flow];
    }

    /** The tag the flow in this slot was started with. */
    public int tagOf(int flow) {
        return tag[flow];
    }

    /** The flow's current rate in bits per second (0 when it is not running). */
    public double rateBps(int flow) {
        return running(flow) ? rateBps[flow] : 0;
    }

    public int activeFlows() {
        return activeFlows;
    }

    /** Rate recomputations (each over one connected component). */
    public long recomputes() {
        return recomputes;
    }

    /** Flows visited by all recomputations together: the engine's work. */
    public long componentFlowsVisited() {
        return componentFlowsVisited;
    }

    /** Flows of recomputed components that kept their rate without taking part in the filling (after departures). */
    public long flowsKept() {
        return flowsKept;
    }

    /** Flows of recomputed components that were alone on their resources and got their rate in closed form. */
    public long flowsAlone() {
        return flowsAlone;
    }

    /** Turns the closed form for lone flows off (tests: it must give the filling's rates to the bit). */
    void fillAloneDirectly(boolean on) {
        fillAloneDirectly = on;
    }

    /** Flows that finished. */
    public long departures() {
        return departures;
    }

    private void attach(int flow, int[] flowResources, double[] flowWeights) {
        onlyDepartures = false;
        resources[flow] = flowResources;
        weights[flow] = flowWeights;
        // A cap no lower than what any one of its resources could give the flow alone never binds: dropping it keeps
        // the flow out of the filling's cap order (most routed flows' cap is their slowest link).
        double alone = Double.POSITIVE_INFINITY;
        for (int k = 0; k < flowResources.length; k++) {
            alone = Math.min(alone, capacityBps[flowResources[k]] / (flowWeights == null ? 1 : flowWeights[k]));
        }
        if (flowResources.length > 0 && capBps[flow] >= alone) {
            capBps[flow] = Double.POSITIVE_INFINITY;
        }
        int[] pos = new int[flowResources.length];
        for (int k = 0; k < flowResources.length; k++) {
            int r = flowResources[k];
            int n = block[BLOCK * r];
            pos[k] = n;
            setFlowAt(r, n, flow);
            block[BLOCK * r] = n + 1;
            markDirty(r);
        }
        positions[flow] = pos;
    }

    private void detach(int flow) {
        int[] rs = resources[flow];
        for (int k = 0; k < rs.length; k++) {
            int r = rs[k];
            int idx = positions[flow][k];
            int n = --block[BLOCK * r];
            int last = flowAt(r, n);
            if (last != flow) {
                setFlowAt(r, idx, last);
                int[] lr = resources[last];
                for (int j = 0; j < lr.length; j++) {
                    if (lr[j] == r) {
                        positions[last][j] = idx;
                        break;
                    }
                }
            }
            markDirty(r);
        }
    }

    /** The i-th flow on resource r. */
    private int flowAt(int r, int i) {
        return i < BLOCK - 1 ? block[BLOCK * r + 1 + i] : overflow[r][i - (BLOCK - 1)];
    }

    private void setFlowAt(int r, int i, int flow) {
        if (i < BLOCK - 1) {
            block[BLOCK * r + 1 + i] = flow;
            return;
        }
        int j = i - (BLOCK - 1);
        int[] more = overflow[r];
        if (more == null) {
            more = new int[4];
            overflow[r] = more;
        } else if (j == more.length) {
            more = Arrays.copyOf(more, more.length * 2);
            overflow[r] = more;
        }
        more[j] = flow;
    }

    private void markDirty(int r) {
        if (resourceMark[r] != -1) {
            resourceMark[r] = -1;
            dirty[dirtyCount++] = r;
        }
        if (!recomputePending) {
            recomputePending = true;
            // after everything else at this picosecond: one recomputation for all of the instant's arrivals and
            // departures, whichever handlers bring them
            sim.scheduleAtEndOfInstant(sim.nowPs(), handlerId, RECOMPUTE, 0L);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (kind == RECOMPUTE) {
            recomputePending = false;
            recompute(nowPs);
            return;
        }
        int flow = (int) arg;
        if (!active[flow] || version[flow] != (int) (arg >>> 32)) {
            return;
        }
        active[flow] = false;
        activeFlows--;
        departures++;
        departedRateMin = Math.min(departedRateMin, rateBps[flow]);
        detach(flow);
        resources[flow] = null;
        weights[flow] = null;
        positions[flow] = null;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = flow;
        listener.sent(nowPs, tag[flow]);
    }

    private void advance(int flow, long nowPs) {
        long dt = nowPs - updatedPs[flow];
        if (dt > 0 && rateBps[flow] > 0) {
            remainingBits[flow] = Math.max(0, remainingBits[flow] - rateBps[flow] * dt / Time.PS_PER_S);
        }
        updatedPs[flow] = nowPs;
    }

    /** Gives a flow a new rate and schedules its completion at that rate (none at rate zero). */
    private void settle(long nowPs, int flow, double rate) {
        advance(flow, nowPs);
        rateBps[flow] = rate;
        version[flow]++;
        if (rate <= 0) {
            return;
        }
        double bits = remainingBits[flow];
        long end;
        if (Double.isInfinite(rate)) {
            end = nowPs;
        } else if (bits % 8 == 0 && rate == Math.rint(rate) && rate < Long.MAX_VALUE) {
            end = nowPs + serialization.serializationPs((long) (bits / 8), (long) rate);
        } else {
            end = nowPs + (long) Math.ceil(bits * Time.PS_PER_S / rate);
        }
        sim.schedule(end, handlerId, COMPLETE, flow | ((long) version[flow] << 32));
    }

    /** Max-min fair rates, by progressive filling, over the component(s) of the resources that changed. */
    private void recompute(long nowPs) {
        recomputes++;
        epoch++;
        if (epoch == -1 || epoch == 0) {
            epoch = 1;
            Arrays.fill(flowMark, 0);
        }
        int nr = 0;
        int nf = 0;
        // Breadth first over resources and flows, from every resource that changed.
        for (int i = 0; i < dirtyCount; i++) {
            int r = dirty[i];
            resourceMark[r] = epoch;
            nr = pushResource(nr, r);
        }
        dirtyCount = 0;
        for (int head = 0; head < nr; head++) {
            int r = compResources[head];
            int count = block[BLOCK * r];
            for (int i = 0; i < count; i++) {
                int f = flowAt(r, i);
                if (flowMark[f] == epoch) {
                    continue;
                }
                flowMark[f] = epoch;
                if (nf == compFlows.length) {
                    compFlows = Arrays.copyOf(compFlows, nf * 2);
                }
                compFlows[nf++] = f;
                for (int q : resources[f]) {
                    if (resourceMark[q] != epoch) {
                        resourceMark[q] = epoch;
                        nr = pushResource(nr, q);
                    }
                }
            }
        }
        componentFlowsVisited += nf;
        for (int i = 0; i < nr; i++) {
            int r = compResources[i];
            used[r] = 0;
            unfrozenWeight[r] = 0;
        }
        // After departures only, a flow slower than every flow that left keeps its rate. In the filling, a flow
        // that left at rate x froze at level x, so none of its resources filled below x; without it they fill no
        // earlier, so every freeze below x happens as before. Those flows start frozen at their rates (a margin
        // keeps the ones within rounding of x in the filling).
        double keepBelow = onlyDepartures ? departedRateMin * (1 - 1e-9) : Double.NEGATIVE_INFINITY;
        onlyDepartures = true;
        departedRateMin = Double.POSITIVE_INFINITY;
        int unfrozen = 0;
        for (int i = 0; i < nf; i++) {
            int f = compFlows[i];
            int[] rs = resources[f];
            double[] ws = weights[f];
            double rate = rateBps[f];
            boolean keep = rate < keepBelow;
            frozen[f] = keep;
            if (keep) {
                newRate[f] = rate;
                flowsKept++;
            } else if (fillAloneDirectly && alone(f)) {
                // Nobody else crosses its resources: its own component, whose filling is known in closed form. It
                // stays out of the shared heap (where an instant's thousands of lone flows cost a log each).
                frozen[f] = true;
                newRate[f] = aloneRate(f);
                flowsAlone++;
                continue;
            } else {
                unfrozen++;
            }
            for (int k = 0; k < rs.length; k++) {
                double w = ws == null ? 1 : ws[k];
                if (keep) {
                    used[rs[k]] += w * rate;
                } else {
                    unfrozenWeight[rs[k]] += w;
                }
            }
        }
        fill(nr, nf, unfrozen);
        for (int i = 0; i < nf; i++) {
            int f = compFlows[i];
            double r = newRate[f];
            double old = rateBps[f];
            if (old > 0 && Math.abs(r - old) <= SAME_RATE * old) {
                advance(f, nowPs);
            } else {
                settle(nowPs, f, r);
            }
        }
    }

    /**
     * Progressive filling in O((flows x resources per flow + resources) log resources): a heap of the resources by
     * fair share ((capacity - what frozen flows use) / weight of the unfrozen flows), and the flows' own caps in
     * increasing order. The level only grows: freezing flows at the level leaves every other share at or above it.
     */
    private void fill(int nr, int nf, int unfrozenFlows) {
        heapSize = 0;
        for (int i = 0; i < nr; i++) {
            int r = compResources[i];
            resourceVersion[r]++;
            if (unfrozenWeight[r] > 0) {
                heapPush(share(r), r);
            }
        }
        int nc = 0;
        for (int i = 0; i < nf; i++) {
            int f = compFlows[i];
            if (capBps[f] < Double.POSITIVE_INFINITY && !frozen[f]) {
                if (nc == capped.length) {
                    capped = Arrays.copyOf(capped, nc * 2);
                }
                capped[nc++] = f;
            }
        }
        sortByCap(nc);
        int nextCap = 0;
        int unfrozen = unfrozenFlows;
        while (unfrozen > 0) {
            while (nextCap < nc && frozen[capped[nextCap]]) {
                nextCap++;
            }
            while (heapSize > 0 && (heapVersion[0] != resourceVersion[heapResource[0]]
                    || unfrozenWeight[heapResource[0]] <= 0)) {
                heapPop();
            }
            double capLevel = nextCap < nc ? capBps[capped[nextCap]] : Double.POSITIVE_INFINITY;
            double shareLevel = heapSize > 0 ? heapKey[0] : Double.POSITIVE_INFINITY;
            if (capLevel <= shareLevel) {
                if (capLevel == Double.POSITIVE_INFINITY) {
                    // Flows that cross nothing and have no cap of their own (cannot happen for routed flows).
                    for (int i = 0; i < nf; i++) {
                        if (!frozen[compFlows[i]]) {
                            unfrozen -= freeze(compFlows[i], capLevel);
                        }
                    }
                    break;
                }
                unfrozen -= freeze(capped[nextCap++], capLevel);
                continue;
            }
            int r = heapResource[0];
            heapPop();
            double level = Math.max(0, shareLevel);
            int count = block[BLOCK * r];
            for (int j = 0; j < count; j++) {
                int f = flowAt(r, j);
                if (!frozen[f]) {
                    unfrozen -= freeze(f, level);
                }
            }
        }
    }

    /** Whether flow f is the only flow on every resource it crosses, each with a positive weight. */
    private boolean alone(int f) {
        int[] rs = resources[f];
        double[] ws = weights[f];
        for (int k = 0; k < rs.length; k++) {
            if (block[BLOCK * rs[k]] != 1 || ws != null && !(ws[k] > 0)) {
                return false;
            }
        }
        return rs.length > 0;
    }

    /**
     * The rate {@link #fill} gives a flow alone on its resources, to the bit: each resource's share is its capacity
     * over the flow's weight (nothing frozen uses it), the filling freezes the flow at the least of them unless its
     * own cap is no higher, and freezes elsewhere never touch these resources (so where they fall among them does not
     * matter). The expressions are {@link #share}'s and the filling's own.
     */
    private double aloneRate(int f) {
        int[] rs = resources[f];
        double[] ws = weights[f];
        double least = Double.POSITIVE_INFINITY;
        for (int k = 0; k < rs.length; k++) {
            double w = ws == null ? 1 : ws[k];
            double share = Math.max(0, capacityBps[rs[k]] - 0.0) / (0.0 + w);
            if (share < least) {
                least = share;
            }
        }
        double cap = capBps[f];
        if (cap <= least) {
            return cap;
        }
        return Math.max(0, least);
    }

    private double share(int r) {
        return Math.max(0, capacityBps[r] - used[r]) / unfrozenWeight[r];
    }

    private void sortByCap(int n) {
        // Insertion sort for the common tiny case, else a boxed-free sort on (cap, flow) pairs.
        if (n < 32) {
            for (int i = 1; i < n; i++) {
                int f = capped[i];
                int j = i - 1;
                while (j >= 0 && capBps[capped[j]] > capBps[f]) {
                    capped[j + 1] = capped[j];
                    j--;
                }
                capped[j + 1] = f;
            }
            return;
        }
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            // Non-negative doubles order as their bits; the flow rides in the low bits of a parallel sort.
            keys[i] = Double.doubleToLongBits(capBps[capped[i]]);
        }
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        sortIndices(idx, keys, 0, n - 1);
        int[] sorted = new int[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = capped[idx[i]];
        }
        System.arraycopy(sorted, 0, capped, 0, n);
    }

    private static void sortIndices(int[] idx, long[] keys, int lo, int hi) {
        // Merge sort: stable, so flows with equal caps keep their component order (determinism).
        if (lo >= hi) {
            return;
        }
        int mid = (lo + hi) >>> 1;
        sortIndices(idx, keys, lo, mid);
        sortIndices(idx, keys, mid + 1, hi);
        int[] tmp = new int[hi - lo + 1];
        int i = lo;
        int j = mid + 1;
        int k = 0;
        while (i <= mid && j <= hi) {
            tmp[k++] = keys[idx[j]] < keys[idx[i]] ? idx[j++] : idx[i++];
        }
        while (i <= mid) {
            tmp[k++] = idx[i++];
        }
        while (j <= hi) {
            tmp[k++] = idx[j++];
        }
        System.arraycopy(tmp, 0, idx, lo, tmp.length);
    }

    private void heapPush(double key, int r) {
        if (heapSize == heapKey.length) {
            heapKey = Arrays.copyOf(heapKey, heapSize * 2);
            heapResource = Arrays.copyOf(heapResource, heapSize * 2);
            heapVersion = Arrays.copyOf(heapVersion, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(key, r, heapKey[parent], heapResource[parent])) {
                break;
            }
            heapKey[i] = heapKey[parent];
            heapResource[i] = heapResource[parent];
            heapVersion[i] = heapVersion[parent];
            i = parent;
        }
        heapKey[i] = key;
        heapResource[i] = r;
        heapVersion[i] = resourceVersion[r];
    }

    /** Smaller share first; equal shares by resource index, so the order never depends on the heap's history. */
    private static boolean before(double k1, int r1, double k2, int r2) {
        return k1 < k2 || k1 == k2 && r1 < r2;
    }

    private void heapPop() {
        int last = --heapSize;
        if (last == 0) {
            return;
        }
        double key = heapKey[last];
        int r = heapResource[last];
        int ver = heapVersion[last];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= last) {
                break;
            }
            if (c + 1 < last && before(heapKey[c + 1], heapResource[c + 1], heapKey[c], heapResource[c])) {
                c++;
            }
            if (!before(heapKey[c], heapResource[c], key, r)) {
                break;
            }
            heapKey[i] = heapKey[c];
            heapResource[i] = heapResource[c];
            heapVersion[i] = heapVersion[c];
            i = c;
        }
        heapKey[i] = key;
        heapResource[i] = r;
        heapVersion[i] = ver;
    }

    private int pushResource(int n, int r) {
        if (n == compResources.length) {
            compResources = Arrays.copyOf(compResources, n * 2);
        }
        compResources[n] = r;
        return n + 1;
    }

    private int freeze(int f, double level) {
        frozen[f] = true;
        newRate[f] = level;
        int[] rs = resources[f];
        double[] ws = weights[f];
        for (int k = 0; k < rs.length; k++) {
            int r = rs[k];
            double w = ws == null ? 1 : ws[k];
            used[r] += w * level;
            unfrozenWeight[r] -= w;
            if (unfrozenWeight[r] < 1e-12) {
                unfrozenWeight[r] = 0;
            }
            // The resource's share changed: a fresh heap entry, the old one is stale.
            resourceVersion[r]++;
            if (unfrozenWeight[r] > 0) {
                heapPush(share(r), r);
            }
        }
        return 1;
    }
}
