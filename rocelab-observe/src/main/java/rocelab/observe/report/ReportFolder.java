package rocelab.observe.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.JobTransferRecord;
import rocelab.observe.job.RankRecord;
import rocelab.observe.job.TimelineRecord;

/**
 * Reads a finished run's folder back into the report's model, for {@code rocelab report OUTDIR}: summary.json and
 * manifest.json, and the CSVs the run wrote (see docs/outputs.md for their columns).
 */
final class ReportFolder {
    private ReportFolder() {}

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            Object tree = value(p, p.nextToken());
            if (!(tree instanceof Map<?, ?>)) {
                throw new RunFolderException(file + ":1:1: expected a JSON object");
            }
            return (Map<String, Object>) tree;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var at = e.getLocation();
            throw new RunFolderException(file + ":" + (at == null ? 0 : at.getLineNr()) + ":"
                    + (at == null ? 0 : at.getColumnNr()) + ": not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** A JSON value as maps (in file order), lists, strings, Long or BigDecimal, Boolean and null. */
    private static Object value(JsonParser p, JsonToken t) throws IOException {
        if (t == null) {
            return null;
        }
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    m.put(k, value(p, p.nextToken()));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    l.add(value(p, e));
                }
                return l;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                return p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                // Exact decimal, as the run had it in memory (times in seconds must not lose picoseconds).
                return new BigDecimal(p.getText());
            }
            case VALUE_TRUE -> {
                return true;
            }
            case VALUE_FALSE -> {
                return false;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The first file the report needs that {@code dir} lacks, with why it needs it, or null when none is missing:
     * files every run writes, and those its summary and manifest say this run wrote. The rest (pfc.csv, vl.csv,
     * collectives.csv, jobs.csv, requests.csv, ...) are written only when the run had them, and their sections are
     * left out of the report when they are absent, as they are from the report the run wrote itself.
     */
    static String missing(Path dir) throws IOException {
        Map<String, Object> summary = json(dir.resolve("summary.json"));
        Map<String, Object> manifest = json(dir.resolve("manifest.json"));
        Object model = summary.getOrDefault("model", "packet");
        Map<String, String> needed = new LinkedHashMap<>();
        needed.put("manifest.json", "the scenario's thresholds and the lint's findings");
        needed.put("topology.csv", "the fabric's links");
        if ("packet".equals(model)) {
            needed.put("ports.csv", "the per-port counters of a packet-level run");
            if (manifest.get("sample_interval_us") != null) {
                String sampled = "the time series a run that samples (observe: sample-interval) writes";
                needed.put("queues.csv", sampled);
                needed.put("links.csv", sampled);
                needed.put("rates.csv", sampled);
            }
        }
        for (String group : new String[] {"jobs.csv ranks.csv timeline.csv", "requests.csv llm_calls.csv"}) {
            List<String> files = List.of(group.split(" "));
            if (files.stream().anyMatch(f -> Files.exists(dir.resolve(f)))) {
                files.forEach(f -> needed.put(f, "the run wrote " + String.join(", ", files) + " together"));
            }
        }
        if (!Files.exists(dir.resolve("flows.csv")) && !Files.exists(dir.resolve("flows_aggregated.csv"))) {
            return "flows.csv (every run writes it, or flows_aggregated.csv when its flows were aggregated)";
        }
        for (var e : needed.entrySet()) {
            if (!Files.exists(dir.resolve(e.getKey()))) {
                return e.getKey() + " (" + e.getValue() + ")";
            }
        }
        return null;
    }

    static ReportData read(Path dir) throws IOException {
        ReportData d = new ReportData();
        d.summary = json(dir.resolve("summary.json"));
        d.manifest = json(dir.resolve("manifest.json"));
        d.scenario = String.valueOf(d.summary.getOrDefault("scenario", ""));
        d.mode = String.valueOf(d.summary.getOrDefault("mode", ""));
        Object sim = d.summary.get("simulated_seconds");
        d.endUs = sim instanceof BigDecimal b ? b.movePointRight(6).doubleValue()
                : sim instanceof Number n ? n.doubleValue() * 1e6 : 0;
        d.flows = flows(Csv.read(dir.resolve("flows.csv")));
        d.collectives = collectives(Csv.read(dir.resolve("collectives.csv")));
        d.transfers = transfers(Csv.read(dir.resolve("transfers.csv")));
        d.jobs = jobs(Csv.read(dir.resolve("jobs.csv")));
        d.ranks = ranks(Csv.read(dir.resolve("ranks.csv")));
        d.timeline = timeline(Csv.read(dir.resolve("timeline.csv")));
        d.requests = requests(Csv.read(dir.resolve("requests.csv")));
        d.calls = calls(Csv.read(dir.resolve("llm_calls.csv")));
        boolean ib = d.infiniband();
        Csv q = Csv.read(dir.resolve("queues.csv"));
        if (q != null) {
            d.queues = new ReportData.Samples();
            for (int i = 0; i < q.rows.size(); i++) {
                int k = d.queues.keyOf(ReportData.queueKey(q.text(i, "switch"), q.integer(i, "port"),
                        q.integer(i, "tc"), ib));
                d.queues.add(q.num(i, "time_us"), k, q.num(i, "bytes"), 0, 0);
            }
        }
        Csv r = Csv.read(dir.resolve("rates.csv"));
        if (r != null) {
            d.rates = new ReportData.Samples();
            for (int i = 0; i < r.rows.size(); i++) {
                int k = d.rates.keyOf(ReportData.qpKey(r.text(i, "qp"), r.text(i, "src"), r.text(i, "dst")));
                d.rates.add(r.num(i, "time_us"), k, r.num(i, "rate_gbps"), r.num(i, "cnps_received"),
                        r.num(i, "qp"));
            }
        }
        Csv l = Csv.read(dir.resolve("links.csv"));
        if (l != null) {
            d.links = new ReportData.Samples();
            for (int i = 0; i < l.rows.size(); i++) {
                int k = d.links.keyOf(l.text(i, "switch") + " p" + l.integer(i, "port"));
                d.links.add(l.num(i, "time_us"), k, l.num(i, "tx_bytes") + d.framingBytes() * l.num(i, "tx_frames"),
                        l.num(i, "marked"), l.num(i, "credit_stall_us"));
            }
        }
        if (d.manifest.get("sample_interval_us") instanceof Number n) {
            d.sampleIntervalUs = n.doubleValue();
        } else {
            d.sampleIntervalUs = interval(d.links, interval(d.queues, interval(d.rates, Double.MAX_VALUE)));
            if (d.sampleIntervalUs == Double.MAX_VALUE) {
                d.sampleIntervalUs = 0;
            }
        }
        Csv p = Csv.read(dir.resolve("pfc.csv"));
        if (p != null) {
            List<ReportData.PfcFrame> frames = new ArrayList<>(p.rows.size());
            for (int i = 0; i < p.rows.size(); i++) {
                frames.add(new ReportData.PfcFrame(p.num(i, "time_us"), p.text(i, "device"),
                        (int) p.integer(i, "port"), p.text(i, "peer"), (int) p.integer(i, "priority"),
                        "XOFF".equals(p.text(i, "kind")), p.num(i, "pause_us"), p.integer(i, "ingress_bytes"),
                        p.has("threshold_bytes") ? p.integer(i, "threshold_bytes") : -1,
                        p.has("reason") && "shared_pool_full".equals(p.text(i, "reason"))));
            }
            d.pfc = frames;
        }
        d.ports = ports(Csv.read(dir.resolve("ports.csv")));
        Csv v = Csv.read(dir.resolve("vl.csv"));
        if (v != null) {
            List<VirtualLanes.PortLane> lanes = new ArrayList<>();
            for (int i = 0; i < v.rows.size(); i++) {
                lanes.add(new VirtualLanes.PortLane(v.text(i, "device"), (int) v.integer(i, "port"),
                        v.text(i, "peer"), (int) v.integer(i, "vl"), v.ps(i, "credit_stall_us"),
                        v.integer(i, "blocks_sent"), v.integer(i, "flow_control_sent"),
                        v.integer(i, "flow_control_received"), v.integer(i, "peak_input_buffer_bytes"),
                        v.integer(i, "fecn_marked")));
            }
            d.lanes = lanes;
        }
        Csv t = Csv.read(dir.resolve("topology.csv"));
        if (t != null) {
            List<ReportData.Link> links = new ArrayList<>();
            for (int i = 0; i < t.rows.size(); i++) {
                links.add(new ReportData.Link(t.text(i, "a"), t.text(i, "b"), (int) t.integer(i, "a_tier"),
                        (int) t.integer(i, "b_tier"), Math.round(t.num(i, "rate_gbps") * 1e9), t.ps(i, "delay_us")));
            }
            d.topology = links;
        }
        return d;
    }

    /**
     * The sampling interval of a folder whose manifest does not say it, recovered from the files: samples are taken every interval and a row kept when a value
     * changed, so the smallest gap between two sample times is the interval.
     */
    private static double interval(ReportData.Samples s, double best) {
        if (s == null) {
            return best;
        }
        for (int i = 1; i < s.rows; i++) {
            double gap = s.timeUs[i] - s.timeUs[i - 1];
            if (gap > 1e-7 && gap < best) {
                best = gap;
            }
        }
        return best;
    }

    private static List<FlowRecord> flows(Csv c) throws RunFolderException {
        List<FlowRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        // A run written before flows.csv had qp_wait_us or delivered_bytes: not known (the bytes of a delivered flow
        // are its size).
        boolean qpWait = c.has("qp_wait_us");
        boolean deliveredBytes = c.has("delivered_bytes");
        for (int i = 0; i < c.rows.size(); i++) {
            long start = c.ps(i, "start_us");
            long fct = c.ps(i, "fct_us");
            long delivered = c.ps(i, "delivered_us");
            long size = c.integer(i, "size_bytes");
            out.add(new FlowRecord((int) c.integer(i, "flow_id"), (int) c.integer(i, "src"),
                    (int) c.integer(i, "dst"), c.integer(i, "size_bytes"), start, c.ps(i, "delivered_us"),
                    fct < 0 ? -1 : start + fct, c.ps(i, "ideal_fct_us"), "failed".equals(c.text(i, "status")),
                    (int) c.integer(i, "qp"),
                    c.text(i, "udp_sport").isEmpty() ? FlowRecord.NO_UDP_SOURCE_PORT : (int) c.integer(i, "udp_sport"),
                    -1, "not_posted".equals(c.text(i, "status")) ? FlowRecord.NotPosted.A_FAILURE_REACHED_IT
                            : FlowRecord.NotPosted.NO, -1, -1, qpWait ? c.ps(i, "qp_wait_us") : -1,
                    deliveredBytes && !c.text(i, "delivered_bytes").isEmpty() ? c.integer(i, "delivered_bytes")
                            : delivered >= 0 || fct >= 0 ? size : -1));
        }
        return out;
    }

    private static List<JobTransferRecord> transfers(Csv c) throws RunFolderException {
        List<JobTransferRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            out.add(new JobTransferRecord(c.text(i, "job"), c.text(i, "name"), c.text(i, "receive"),
                    (int) c.integer(i, "iteration"), (int) c.integer(i, "src_rank"), (int) c.integer(i, "dst_rank"),
                    (int) c.integer(i, "src_host"), (int) c.integer(i, "dst_host"), c.integer(i, "size_bytes"),
                    c.text(i, "flow_id").isEmpty() ? -1 : (int) c.integer(i, "flow_id"), c.ps(i, "start_us"),
                    c.ps(i, "end_us"), c.ps(i, "ideal_time_us")));
        }
        return out;
    }

    private static List<CollectiveRecord> collectives(Csv c) throws RunFolderException {
        List<CollectiveRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            boolean done = "completed".equals(c.text(i, "status"));
            long start = c.ps(i, "start_us");
            long end = c.ps(i, "end_us");
            double algbw = c.num(i, "algbw_gbytes_per_s");
            double busbw = c.num(i, "busbw_gbytes_per_s");
            // The file keeps busbw, not the bus factor: recover it (the report shows busbw to the file's precision).
            double factor = algbw > 0 ? busbw / algbw : Double.NaN;
            out.add(new CollectiveRecord(c.text(i, "job"), c.text(i, "name"), c.text(i, "algorithm"),
                    (int) c.integer(i, "ranks"), c.integer(i, "size_bytes"), start, end < 0 ? start : end, done,
                    done ? factor : Double.NaN, c.ps(i, "ideal_time_us"),
                    c.has("iteration") && !c.text(i, "iteration").isEmpty() ? (int) c.integer(i, "iteration") : -1,
                    c.has("runs") ? (int) c.integer(i, "runs") : 1,
                    c.has("concurrent_calls") && !c.text(i, "concurrent_calls").isEmpty()
                            ? new CollectiveRecord.Concurrent((int) c.integer(i, "concurrent_calls"),
                                    c.text(i, "concurrent_longest"), Math.max(0, c.ps(i, "concurrent_longest_us")))
                                    .withTransfers(c.has("concurrent_transfers") && !c.text(i,
                                            "concurrent_transfers").isEmpty() ? (int) c.integer(i,
                                                    "concurrent_transfers") : 0,
                                            c.has("concurrent_transfer_longest") ? c.text(i,
                                                    "concurrent_transfer_longest") : "",
                                            c.has("concurrent_transfer_longest_us") ? Math.max(0, c.ps(i,
                                                    "concurrent_transfer_longest_us")) : 0)
                            : CollectiveRecord.Concurrent.NONE,
                    c.has("rate_held_share") && !c.text(i, "rate_held_share").isEmpty()
                            ? c.num(i, "rate_held_share") : Double.NaN,
                    c.has("beside_items") && !c.text(i, "beside_items").isEmpty()
                            ? new CollectiveRecord.Beside((int) c.integer(i, "beside_items"),
                                    c.text(i, "beside_longest"), Math.max(0, c.ps(i, "beside_longest_us")))
                            : CollectiveRecord.Beside.NONE,
                    c.has("entry_spread_us") && !c.text(i, "entry_spread_us").isEmpty()
                            ? start - c.ps(i, "entry_spread_us") : -1,
                    c.has("ideal_entry_spread_us") ? c.ps(i, "ideal_entry_spread_us") : -1,
                    CollectiveRecord.LateEntry.NONE,
                    c.has("links_beside_items") && !c.text(i, "links_beside_items").isEmpty()
                            ? new CollectiveRecord.OnLinks((int) c.integer(i, "links_beside_items"),
                                    c.text(i, "links_beside_longest"), Math.max(0, c.ps(i, "links_beside_longest_us")),
                                    c.text(i, "links_beside_at"))
                            : CollectiveRecord.OnLinks.NONE));
        }
        return out;
    }

    private static List<JobRecord> jobs(Csv c) throws RunFolderException {
        List<JobRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            long start = c.ps(i, "start_us");
            long jct = c.ps(i, "jct_us");
            out.add(new JobRecord(c.text(i, "job"), (int) c.integer(i, "ranks"), (int) c.integer(i, "iterations"),
                    (int) c.integer(i, "warmup"), start, jct < 0 ? start : start + jct,
                    "completed".equals(c.text(i, "status")), start + c.ps(i, "ideal_jct_us"),
                    c.num(i, "iteration_us"), c.num(i, "ideal_iteration_us"), c.num(i, "compute_us"),
                    c.num(i, "exposed_comm_us"), c.num(i, "idle_us"), c.num(i, "ideal_exposed_comm_us"),
                    c.num(i, "ideal_idle_us"), c.num(i, "network_wait_us"), c.num(i, "max_rank_network_wait_us"))
                    // A folder written before the time per iteration was has no column for it: shown blank.
                    .withPerIteration(c.has("per_iteration_us") ? c.num(i, "per_iteration_us") : Double.NaN,
                            c.has("ideal_per_iteration_us") ? c.num(i, "ideal_per_iteration_us") : Double.NaN));
        }
        return out;
    }

    private static List<RankRecord> ranks(Csv c) throws RunFolderException {
        List<RankRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            out.add(new RankRecord(c.text(i, "job"), (int) c.integer(i, "rank"), (int) c.integer(i, "host"),
                    c.text(i, "coords"), c.num(i, "iteration_us"), c.num(i, "compute_us"),
                    c.num(i, "exposed_comm_us"), c.num(i, "idle_us"), c.num(i, "ideal_exposed_comm_us"),
                    c.num(i, "ideal_idle_us")));
        }
        return out;
    }

    private static List<TimelineRecord> timeline(Csv c) throws RunFolderException {
        List<TimelineRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            out.add(new TimelineRecord(c.text(i, "job"), (int) c.integer(i, "rank"), c.text(i, "kind"),
                    c.ps(i, "start_us"), c.ps(i, "end_us"), c.text(i, "label")));
        }
        return out;
    }

    private static List<RequestRecord> requests(Csv c) throws RunFolderException {
        List<RequestRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            long arrival = c.ps(i, "arrival_us");
            long e2e = c.ps(i, "e2e_us");
            long ideal = c.ps(i, "ideal_e2e_us");
            double tpot = c.num(i, "tpot_us");
            out.add(new RequestRecord(c.text(i, "service"), (int) c.integer(i, "request"), arrival,
                    (int) c.integer(i, "llm_calls"), c.integer(i, "prefill_tokens"), c.integer(i, "output_tokens"),
                    c.text(i, "decode_instance"), e2e < 0 ? -1 : arrival + e2e, ideal < 0 ? -1 : arrival + ideal,
                    c.ps(i, "ttft_us"), Double.isNaN(tpot) ? Double.NaN : tpot * 1e6));
        }
        return out;
    }

    private static List<CallRecord> calls(Csv c) throws RunFolderException {
        List<CallRecord> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        for (int i = 0; i < c.rows.size(); i++) {
            long ready = c.ps(i, "ready_us");
            long queue = c.ps(i, "queue_us");
            long prefillEnd = c.ps(i, "prefill_end_us");
            long kv = c.ps(i, "kv_transfer_us");
            // A folder written before the column: when decoding began is not known, so decode is not drawn (drawn
            // from the KV cache's arrival it would show a wait for the slot as decoding).
            long slotWait = c.has("slot_wait_us") ? c.ps(i, "slot_wait_us") : -1;
            long first = c.ps(i, "first_token_us");
            long idealTtft = c.ps(i, "ideal_ttft_us");
            out.add(new CallRecord(c.text(i, "service"), (int) c.integer(i, "request"), (int) c.integer(i, "call"),
                    c.text(i, "prefill_instance"), c.text(i, "decode_instance"), (int) c.integer(i, "decode_slot"),
                    c.integer(i, "prefill_tokens"), (int) c.integer(i, "output_tokens"), c.integer(i, "kv_bytes"),
                    ready, ready >= 0 && queue >= 0 ? ready + queue : -1, prefillEnd,
                    prefillEnd >= 0 && kv >= 0 ? prefillEnd + kv : -1,
                    prefillEnd >= 0 && kv >= 0 && slotWait >= 0 ? prefillEnd + kv + slotWait : -1, first, c.ps(i, "last_token_us"), idealTtft));
        }
        return out;
    }

    private static List<ReportData.PortRow> ports(Csv c) throws RunFolderException {
        List<ReportData.PortRow> out = new ArrayList<>();
        if (c == null) {
            return out;
        }
        List<String> counters = c.header.subList(4, c.header.size() - 1);
        for (int i = 0; i < c.rows.size(); i++) {
            Map<String, Long> m = new LinkedHashMap<>();
            for (String k : counters) {
                m.put(k, k.endsWith("_us") ? c.ps(i, k) : c.integer(i, k));
            }
            out.add(new ReportData.PortRow(c.text(i, "switch"), (int) c.integer(i, "port"), c.text(i, "peer"),
                    c.num(i, "rate_gbps"), m, c.integer(i, "peak_queue_bytes")));
        }
        return out;
    }
}
