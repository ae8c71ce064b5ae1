package rocelab.observe.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.engine.Time;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.QueuePairTable;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;
import rocelab.observe.output.AtomicFiles;
import rocelab.observe.output.CsvStream;

/**
 * Samples, every interval, each queue pair's sending rate and each switch egress queue's depth per traffic class,
 * and keeps a row only when the value changed since the previous sample, so long steady stretches cost nothing.
 * Rows live in primitive arrays; the CSV text is built once, when the run is written. Each switch port's
 * cumulative transmitted bytes, congestion marks (ECN CE, or FECN on InfiniBand) and credit-stall time (InfiniBand)
 * are sampled the same way, so the report can draw link utilisation, marking and credit stalls over time.
 */
public final class TimeSeriesSampler implements EventHandler {
    private static final int SAMPLE = 1;

    private final Simulator sim;
    private final Network network;
    private final int handlerId;
    private final long intervalPs;
    private final long[][] lastDepth;
    /** Rows of rates.csv, queues.csv and links.csv; the time of each row is its sample's, kept per sample. */
    private final RateRows rates;
    private final SampleTimes rateTimes = new SampleTimes();
    private final LongColumns queues = new LongColumns(3);
    private final SampleTimes queueTimes = new SampleTimes();
    private final LongColumns links = new LongColumns(6);
    private final SampleTimes linkTimes = new SampleTimes();
    private final long[][] lastLink;
    /**
     * The HCAs' credit-stall time summed over every HCA and lane (InfiniBand; no CSV), a row whenever it changed:
     * with the switch ports' in links.csv it makes the fabric's total the comparison report draws.
     */
    private final LongColumns hcaStall = new LongColumns(3);
    private long lastHcaStall;
    private long[] rateMemory = new long[0];
    private long[] cnpMemory = new long[0];
    /**
     * Rows of throughput.csv: QP, payload bytes its responder received in order since the QP's previous row, and its
     * congestion control's window then (-1: none). Kept and moved to a temporary file as rates.csv's are.
     */
    private final RateRows delivered;
    private final SampleTimes deliveredTimes = new SampleTimes();
    /** Per QP, the bytes its responder had received in order at its last row (cumulative). */
    private long[] deliveredMemory = new long[0];
    /**
     * The changed QPs of a sample are visited in batches: each visit is two or three cache misses in a row (the QP,
     * its message ring or control, the ring's entry) at a million QPs, and a sample runs between windows with every
     * other thread waiting, so their loads are started together for a batch first ({@link QueuePair#touchDelivered}).
     */
    private final int[] batch = new int[32];
    /** What the batches' loads read, kept so that they are not optimised away. */
    private long touched;
    /** Events the simulator had processed at the previous sample (this sampler's own event included). */
    private long eventsAtLastSample;
    /** When the last sample was taken (-1: none yet). */
    private long lastSamplePs = -1;

    /**
     * Whether each sample visits every QP (the definition, kept as the reference the tests compare with) instead of
     * only the QPs whose rate, notifications or posted work changed since the previous sample.
     */
    private final boolean everyQueuePair;

    public TimeSeriesSampler(Network network, long intervalPs) {
        this(network, intervalPs, false, RateRows.MEMORY_ROWS);
    }

    /** A sampler that visits every QP at every sample: the definition, which the tests compare the default with. */
    public static TimeSeriesSampler visitingEveryQueuePair(Network network, long intervalPs) {
        return new TimeSeriesSampler(network, intervalPs, true, RateRows.MEMORY_ROWS);
    }

    /**
     * A sampler that moves rates.csv's rows to its temporary file whenever {@code rows} of them are on the heap
     * (by default a million), so that a small run exercises the path a large one takes.
     */
    public static TimeSeriesSampler movingRatesToFileEvery(Network network, long intervalPs, int rows) {
        return new TimeSeriesSampler(network, intervalPs, false, rows);
    }

    private TimeSeriesSampler(Network network, long intervalPs, boolean everyQueuePair, int ratesInMemory) {
        this.everyQueuePair = everyQueuePair;
        this.rates = new RateRows(ratesInMemory);
        this.delivered = new RateRows(ratesInMemory);
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
        this.lastLink = new long[network.switchCount()][];
        for (int s = 0; s < network.switchCount(); s++) {
            lastLink[s] = new long[network.switchAt(s).portCount() * 4];
        }
        if (!everyQueuePair) {
            network.queuePairs().trackChanges();
        }
        // After every other event of the sample's picosecond: the state it sees is the same in one simulator and in
        // a partitioned run (where the sampler runs between windows, every partition idle).
        sim.scheduleAtEndOfInstant(0, handlerId, SAMPLE, 0L);
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        lastSamplePs = nowPs;
        int qps = network.queuePairs().size();
        if (rateMemory.length < qps) {
            long[] grown = Arrays.copyOf(rateMemory, qps);
            Arrays.fill(grown, rateMemory.length, qps, -1);
            rateMemory = grown;
            cnpMemory = Arrays.copyOf(cnpMemory, qps);
            deliveredMemory = Arrays.copyOf(deliveredMemory, qps);
        }
        rateTimes.startSample(nowPs, rates.rows());
        queueTimes.startSample(nowPs, queues.rows());
        linkTimes.startSample(nowPs, links.rows());
        if (everyQueuePair) {
            for (int q = 0; q < qps; q++) {
                sampleQueuePair(nowPs, q);
            }
        } else {
            // A QP that did not change since the previous sample gives no row there (its rate and notifications are
            // what that sample remembered, or it was skipped and still is), so only the changed ones are visited, in
            // the same QP order. A skipped QP that changed loses its mark here; posting work on it marks it again.
            QueuePairTable table = network.queuePairs();
            for (int q = table.takeChanged(0); q >= 0; ) {
                // A batch of the changed QPs, their loads started together, then sampled in order as before.
                int n = 0;
                for (; q >= 0 && n < batch.length; q = table.takeChanged(q + 1)) {
                    batch[n++] = q;
                }
                long t = 0;
                for (int i = 0; i < n; i++) {
                    t += table.get(batch[i]).touchRate();
                }
                touched += t;
                for (int i = 0; i < n; i++) {
                    sampleQueuePair(nowPs, batch[i]);
                }
            }
        }
        sampleDelivered(nowPs);
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            long[] last = lastDepth[s];
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort port = sw.port(p);
                for (int tc = 0; tc < 8; tc++) {
                    long depth = port.queuedBytes(tc);
                    if (depth != last[p * 8 + tc]) {
                        last[p * 8 + tc] = depth;
                        queues.add(s, p * 8L + tc, depth);
                    }
                }
                sampleLink(nowPs, s, p, port);
            }
        }
        if (network.isInfiniband()) {
            long hca = 0;
            for (int h = 0; h < network.hostCount(); h++) {
                var gate = network.nic(h).creditGate();
                for (int vl = 0; gate != null && vl < InfinibandParameters.DATA_VLS; vl++) {
                    hca += gate.stallPs(vl, nowPs);
                }
            }
            if (hca != lastHcaStall) {
                lastHcaStall = hca;
                hcaStall.add(nowPs, hca, 0);
            }
        }
        // Keep sampling only while something else is still going to happen, and only while something happens:
        // when no other event ran since the last sample, nothing can change before the next event, so the next
        // sample is the first one of the interval grid at or after it (a flow starting at 1000 s costs no
        // billion idle samples). A sample beyond the representable time is never taken.
        if (sim.runPendingEvents() > 0) {
            boolean idle = sim.runEventsProcessed() - eventsAtLastSample <= 1;
            eventsAtLastSample = sim.runEventsProcessed();
            long next = idle ? gridAtOrAfter(sim.runFirstEventPs()) : nowPs + intervalPs;
            if (next > nowPs && next <= Long.MAX_VALUE - intervalPs) {
                sim.scheduleAtEndOfInstant(next, handlerId, SAMPLE, 0L);
            }
        }
    }

    /**
     * Adds links.csv's rows at the run's end, {@code endPs}, for the switch ports whose counters moved since the last
     * sample: without them the bytes sent after the last multiple of the interval would be in no row, and a port's last
     * row would fall short of ports.csv. Called once, after the event loop, with the end every thread count agrees on
     * (the sampler itself keeps to the grid, which a partitioned run samples between windows).
     */
    public void finish(long endPs) {
        // A sample at the end itself already saw the final counters. lastSamplePs stays the grid's: what reads the
        // rows at grid times (held_by_rate) asks for none past it.
        if (endPs <= lastSamplePs) {
            return;
        }
        // throughput.csv too: a QP's rows then add up to what its responder received in order by the end.
        sampleDelivered(endPs);
        linkTimes.startSample(endPs, links.rows());
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                sampleLink(endPs, s, p, sw.port(p));
            }
        }
    }

    /** Adds a links.csv row for port {@code p} of switch {@code s} if one of its cumulative counters changed. */
    private void sampleLink(long nowPs, int s, int p, EgressPort port) {
        long tx = port.txBytesBy(nowPs);
        long marked = port.counter(PortCounter.ECN_MARKED);
        long stall = 0;
        var gate = port.creditGate();
        if (gate != null) {
            for (int vl = 0; vl < InfinibandParameters.DATA_VLS; vl++) {
                stall += gate.stallPs(vl, nowPs);
            }
        }
        // Frames counted as they start, as ports.csv's tx_packets: the port's own counter, read here, so the report's
        // time on the wire (each frame's preamble and gap) costs the hot path nothing.
        long frames = port.counter(PortCounter.TX_PACKETS);
        long[] seen = lastLink[s];
        if (tx != seen[p * 4] || marked != seen[p * 4 + 1] || stall != seen[p * 4 + 2] || frames != seen[p * 4 + 3]) {
            seen[p * 4] = tx;
            seen[p * 4 + 1] = marked;
            seen[p * 4 + 2] = stall;
            seen[p * 4 + 3] = frames;
            links.add(s, p, tx, marked, stall, frames);
        }
    }

    /** Adds a row for QP {@code q} if it sends (or has not been sampled since it was posted) and its rate or
     * notifications received changed. */
    private void sampleQueuePair(long nowPs, int q) {
        QueuePair qp = network.queuePairs().get(q);
        if (qp.postedPsns() == 0 || qp.sndUna() == qp.postedPsns() && rateMemory[q] >= 0) {
            return;
        }
        long rate = qp.congestionControl().rateBps();
        long cnps = qp.cnpsReceived();
        if (rate != rateMemory[q] || cnps != cnpMemory[q]) {
            rateMemory[q] = rate;
            cnpMemory[q] = cnps;
            rates.add(q, rate, cnps);
        }
    }

    /**
     * Adds a throughput.csv row for each QP whose responder received bytes in order since its previous row. Only the
     * QPs whose responder received payload in order since the last sample are visited (the table marks them as it
     * happens, {@link QueuePairTable#takeDelivered}); sampling every QP visits them all, the definition.
     */
    private void sampleDelivered(long nowPs) {
        deliveredTimes.startSample(nowPs, delivered.rows());
        QueuePairTable table = network.queuePairs();
        if (deliveredMemory.length < table.size()) {
            // QPs opened since the last sample (the run's end samples off the grid)
            deliveredMemory = Arrays.copyOf(deliveredMemory, table.size());
        }
        if (everyQueuePair) {
            for (int q = 0; q < table.size(); q++) {
                sampleDelivered(table, q);
            }
        } else {
            // The same batches as the rates' above, written out again: one method taking the take, touch and visit
            // as lambdas would allocate them every sample (they capture the time or the table), and a warm run
            // allocates nothing (CcAllocationFreeTest).
            for (int q = table.takeDelivered(0); q >= 0; ) {
                int n = 0;
                for (; q >= 0 && n < batch.length; q = table.takeDelivered(q + 1)) {
                    batch[n++] = q;
                }
                long t = 0;
                for (int i = 0; i < n; i++) {
                    t += table.get(batch[i]).touchDelivered();
                }
                touched += t;
                for (int i = 0; i < n; i++) {
                    sampleDelivered(table, batch[i]);
                }
            }
        }
    }

    private void sampleDelivered(QueuePairTable table, int q) {
        QueuePair qp = table.get(q);
        long d = qp.deliveredBytes();
        if (d != deliveredMemory[q]) {
            // A window of 2 GiB or more limits nothing here (HPCC's before its first ACK): none, as a control
            // without one. A control without a window is not read at all (a miss per QP sampled at scale).
            long window = qp.windowed() ? qp.congestionControl().windowBytes() : -1;
            delivered.add(q, d - deliveredMemory[q], window < Integer.MAX_VALUE ? window : -1);
            deliveredMemory[q] = d;
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
        return text(this::writeRatesCsv);
    }

    /** {@link #ratesCsv()} streamed into {@code out} (a large fabric's rates.csv has millions of rows). */
    public void writeRatesCsv(OutputStream out) throws IOException {
        CsvStream t = new CsvStream(out, List.of("time_us", "qp", "src", "dst", "rate_gbps", "cnps_received"));
        QueuePairTable table = network.queuePairs();
        forEachRate((timePs, q, rateBps, cnps) ->
                writeEnds(t.micros(timePs), table, q).billionths(rateBps).number(cnps).endRow());
        t.flush();
    }

    /**
     * QP {@code q}'s id, source and destination host cells, from the table's array of ends rather than the QP (rows
     * name QPs again and again: a 1,024-host all-to-all's rates.csv is 24 million rows and its throughput.csv 20
     * million, of a million scattered QPs).
     */
    private static CsvStream writeEnds(CsvStream t, QueuePairTable table, int q) throws IOException {
        return t.number(q).number(table.sourceHost(q)).number(table.destinationHost(q));
    }

    /**
     * {@code time_us,qp,src,dst,delivered_bytes,gbps,window_bytes}: one row per QP and sample at which its responder
     * had received payload bytes in order since the previous sample (the run's end is the last sample); gbps is those
     * bytes over the interval ending at the row's time (shorter at a run's end off the grid), window_bytes the QP's
     * congestion window then (empty for a control without one, or a window of 2 GiB or more, which limits nothing).
     */
    public String throughputCsv() {
        return text(this::writeThroughputCsv);
    }

    /** {@link #throughputCsv()} streamed into {@code out}. */
    public void writeThroughputCsv(OutputStream out) throws IOException {
        CsvStream t = new CsvStream(out, List.of("time_us", "qp", "src", "dst", "delivered_bytes", "gbps",
                "window_bytes"));
        QueuePairTable table = network.queuePairs();
        forEachDelivered((timePs, q, bytes, window) -> {
            writeEnds(t.micros(timePs), table, q).number(bytes)
                    .billionths(Math.round(bytes * 8.0 * Time.PS_PER_S / spanEndingAt(timePs)));
            if (window >= 0) {
                t.number(window);
            } else {
                t.empty();
            }
            t.endRow();
        });
        t.flush();
    }

    /**
     * The time a sample at {@code timePs} covers: the interval, or at a run's end off the grid the time since the grid
     * point before it. Every byte a sample counts arrived in that time: the sampler skips grid points only when no
     * event ran since its last sample, and then samples at the first grid point at or after the next event.
     */
    public long spanEndingAt(long timePs) {
        long off = timePs % intervalPs;
        return off == 0 ? intervalPs : off;
    }

    /**
     * Every throughput.csv row in order: its sample's time (ps), the QP's index, the payload bytes its responder
     * received in order since its previous row, its window (bytes; -1: none).
     */
    public void forEachDelivered(RateRow visitor) throws IOException {
        SampleTimes.Cursor at = deliveredTimes.cursor();
        delivered.forEach((row, q, bytes, window) -> visitor.accept(at.timeOfRow(row), q, bytes, window));
    }

    public int deliveredRows() {
        return delivered.rows();
    }

    /** {@code time_us,switch,port,tc,bytes}: one row per egress queue whenever its depth changed. */
    public String queuesCsv() {
        return text(this::writeQueuesCsv);
    }

    /** {@link #queuesCsv()} streamed into {@code out}. */
    public void writeQueuesCsv(OutputStream out) throws IOException {
        CsvStream t = new CsvStream(out, List.of("time_us", "switch", "port", "tc", "bytes"));
        for (int r = 0; r < queues.rows(); r++) {
            long pt = queues.get(r, 1);
            t.micros(queueTimes.timeOfRow(r)).text(network.switchAt((int) queues.get(r, 0)).name()).number(pt / 8)
                    .number(pt % 8).number(queues.get(r, 2)).endRow();
        }
        t.flush();
    }

    /**
     * {@code time_us,switch,port,tx_bytes,tx_frames,marked,credit_stall_us}: one row per switch port whenever one of
     * its cumulative counters changed: bytes transmitted, frames started, packets marked (ECN CE; FECN on InfiniBand) and the time its
     * lanes waited for credits (InfiniBand, summed over lanes).
     */
    public String linksCsv() {
        return text(this::writeLinksCsv);
    }

    /** {@link #linksCsv()} streamed into {@code out}. */
    public void writeLinksCsv(OutputStream out) throws IOException {
        CsvStream t = new CsvStream(out, List.of("time_us", "switch", "port", "tx_bytes", "tx_frames", "marked",
                "credit_stall_us"));
        for (int r = 0; r < links.rows(); r++) {
            t.micros(linkTimes.timeOfRow(r)).text(network.switchAt((int) links.get(r, 0)).name())
                    .number(links.get(r, 1)).number(links.get(r, 2)).number(links.get(r, 5)).number(links.get(r, 3))
                    .micros(links.get(r, 4)).endRow();
        }
        t.flush();
    }

    private static String text(AtomicFiles.Content csv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            csv.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    // Raw rows, for the report built from memory (same content as the CSVs, no text in between).

    public int rateRows() {
        return rates.rows();
    }

    /** Rates rows that were moved to the temporary file (the rest are on the heap). */
    public int rateRowsInFile() {
        return rates.rowsInFile();
    }

    /**
     * Every rates.csv row in order, as sampled (the report reads them this way: a large run's rows are mostly in a
     * temporary file, not on the heap). Several threads may read at once.
     */
    public void forEachRate(RateRow visitor) throws IOException {
        SampleTimes.Cursor at = rateTimes.cursor();
        rates.forEach((row, q, rateBps, cnps) -> visitor.accept(at.timeOfRow(row), q, rateBps, cnps));
    }

    /** One rates.csv row: its sample's time (ps), the QP's index in the QP table, its rate (bits/s) and the
     * congestion notifications it has received. */
    public interface RateRow {
        void accept(long timePs, int queuePair, long rateBps, long cnps) throws IOException;
    }

    public int queueRows() {
        return queues.rows();
    }

    /** Column c of queue row r: 0 time (ps), 1 switch index, 2 port x 8 + traffic class, 3 bytes. */
    public long queue(int r, int c) {
        return c == 0 ? queueTimes.timeOfRow(r) : queues.get(r, c - 1);
    }

    public int linkRows() {
        return links.rows();
    }

    /**
     * Column c of link row r: 0 time (ps), 1 switch index, 2 port, 3 tx bytes, 4 marked, 5 credit stall (ps), 6 tx
     * frames.
     */
    public long link(int r, int c) {
        return c == 0 ? linkTimes.timeOfRow(r) : links.get(r, c - 1);
    }

    public int hcaStallRows() {
        return hcaStall.rows();
    }

    /** Column c of HCA credit-stall row r: 0 time (ps), 1 credit stall summed over every HCA and lane (ps). */
    public long hcaStall(int r, int c) {
        return hcaStall.get(r, c);
    }

    public long intervalPs() {
        return intervalPs;
    }

    /** When the last sample was taken (-1: none). */
    public long lastSamplePs() {
        return lastSamplePs;
    }

    /**
     * The bytes switch port ({@code switchIndex[i]}, {@code port[i]}) had transmitted as sampled at {@code timePs[i]},
     * a multiple of the interval no later than {@link #lastSamplePs}: the last links.csv row of that port at or before
     * it (0 before its first). A grid time the sampler skipped had nothing happen since the sample before it, so the
     * counter is that sample's. One pass over the rows; several threads may ask at once.
     */
    public long[] txBytesAt(int[] switchIndex, int[] port, long[] timePs) {
        long[] out = new long[timePs.length];
        // The queries of each port, chained: a row visits only its own port's.
        int[] offset = new int[network.switchCount() + 1];
        for (int sw = 0; sw < network.switchCount(); sw++) {
            offset[sw + 1] = offset[sw] + network.switchAt(sw).portCount();
        }
        int[] head = new int[offset[network.switchCount()]];
        Arrays.fill(head, -1);
        int[] next = new int[timePs.length];
        for (int i = 0; i < timePs.length; i++) {
            int g = offset[switchIndex[i]] + port[i];
            next[i] = head[g];
            head[g] = i;
        }
        SampleTimes.Cursor at = linkTimes.cursor();
        for (int r = 0; r < links.rows(); r++) {
            int g = head[offset[(int) links.get(r, 0)] + (int) links.get(r, 1)];
            if (g < 0) {
                continue;
            }
            long t = at.timeOfRow(r);
            for (int i = g; i >= 0; i = next[i]) {
                if (t <= timePs[i]) {
                    out[i] = links.get(r, 2);
                }
            }
        }
        return out;
    }
}
