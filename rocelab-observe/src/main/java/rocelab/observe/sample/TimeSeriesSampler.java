package rocelab.observe.sample;

import java.util.List;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.switching.Switch;
import rocelab.observe.output.CsvTable;
import rocelab.observe.output.Numbers;

/**
 * Samples, every interval, each queue pair's sending rate and each switch egress queue's depth per traffic class,
 * and keeps a row only when the value changed since the previous sample, so long steady stretches cost nothing.
 * Rows live in primitive arrays; the CSV text is built once, when the run is written.
 */
public final class TimeSeriesSampler implements EventHandler {
    private static final int SAMPLE = 1;

    private final Simulator sim;
    private final Network network;
    private final int handlerId;
    private final long intervalPs;
    private final long[][] lastDepth;
    private final LongColumns rates = new LongColumns(4, 4096);
    private final LongColumns queues = new LongColumns(4, 4096);
    private long[] rateMemory = new long[0];
    private long[] cnpMemory = new long[0];
    /** Events the simulator had processed at the previous sample (this sampler's own event included). */
    private long eventsAtLastSample;

    public TimeSeriesSampler(Network network, long intervalPs) {
        if (intervalPs <= 0) {
            throw new IllegalArgumentException("sample interval must be positive");
        }
        this.sim = network.simulator();
        this.network = network;
        this.intervalPs = intervalPs;
        this.handlerId = sim.register(this);
        this.lastDepth = new long[network.switchCount()][];
        for (int s = 0; s < network.switchCount(); s++) {
            lastDepth[s] = new long[network.switchAt(s).portCount() * 8];
        }
        sim.schedule(0, handlerId, SAMPLE, 0L);
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        int qps = network.queuePairs().size();
        if (rateMemory.length < qps) {
            long[] grown = java.util.Arrays.copyOf(rateMemory, qps);
            java.util.Arrays.fill(grown, rateMemory.length, qps, -1);
            rateMemory = grown;
            cnpMemory = java.util.Arrays.copyOf(cnpMemory, qps);
        }
        for (int q = 0; q < qps; q++) {
            QueuePair qp = network.queuePairs().get(q);
            if (qp.postedPsns() == 0 || qp.sndUna() == qp.postedPsns() && rateMemory[q] >= 0) {
                continue;
            }
            long rate = qp.congestionControl().rateBps();
            long cnps = qp.cnpsReceived();
            if (rate != rateMemory[q] || cnps != cnpMemory[q]) {
                rateMemory[q] = rate;
                cnpMemory[q] = cnps;
                rates.add(nowPs, q, rate, cnps);
            }
        }
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            long[] last = lastDepth[s];
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort port = sw.port(p);
                for (int tc = 0; tc < 8; tc++) {
                    long depth = port.queuedBytes(tc);
                    if (depth != last[p * 8 + tc]) {
                        last[p * 8 + tc] = depth;
                        queues.add(nowPs, s, p * 8L + tc, depth);
                    }
                }
            }
        }
        // Keep sampling only while something else is still going to happen, and only while something happens:
        // when no other event ran since the last sample, nothing can change before the next event, so the next
        // sample is the first one of the interval grid at or after it (a flow starting at 1000 s costs no
        // billion idle samples). A sample beyond the representable time is never taken.
        if (sim.pendingEvents() > 0) {
            boolean idle = sim.eventsProcessed() - eventsAtLastSample <= 1;
            eventsAtLastSample = sim.eventsProcessed();
            long next = idle ? gridAtOrAfter(sim.calendar().firstTimePs()) : nowPs + intervalPs;
            if (next > nowPs && next <= Long.MAX_VALUE - intervalPs) {
                sim.schedule(next, handlerId, SAMPLE, 0L);
            }
        }
    }

    /** The first sample time of the grid (multiples of the interval) at or after {@code t}; MAX_VALUE if none. */
    private long gridAtOrAfter(long t) {
        long k = t / intervalPs + (t % intervalPs == 0 ? 0 : 1);
        return k > Long.MAX_VALUE / intervalPs ? Long.MAX_VALUE : Math.max(k * intervalPs, sim.nowPs() + intervalPs);
    }

    /**
     * {@code time_us,qp,src,dst,rate_gbps,cnps_received}: one row per QP whenever its rate or its count of
     * congestion notifications received changed.
     */
    public String ratesCsv() {
        CsvTable t = new CsvTable(List.of("time_us", "qp", "src", "dst", "rate_gbps", "cnps_received"));
        for (int r = 0; r < rates.rows(); r++) {
            QueuePair qp = network.queuePairs().get((int) rates.get(r, 1));
            t.row(Numbers.micros(rates.get(r, 0)), qp.id(), qp.sourceHost(), qp.destinationHost(),
                    rates.get(r, 2) / 1e9, rates.get(r, 3));
        }
        return t.toString();
    }

    /** {@code time_us,switch,port,tc,bytes}: one row per egress queue whenever its depth changed. */
    public String queuesCsv() {
        CsvTable t = new CsvTable(List.of("time_us", "switch", "port", "tc", "bytes"));
        for (int r = 0; r < queues.rows(); r++) {
            long pt = queues.get(r, 2);
            t.row(Numbers.micros(queues.get(r, 0)), network.switchAt((int) queues.get(r, 1)).name(), pt / 8, pt % 8,
                    queues.get(r, 3));
        }
        return t.toString();
    }

    public long intervalPs() {
        return intervalPs;
    }
}
