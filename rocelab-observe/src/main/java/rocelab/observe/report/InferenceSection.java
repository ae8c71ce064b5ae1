package rocelab.observe.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.observe.inference.RequestRecord;

/**
 * The report's inference table: per service the p50/p90/p99 of time to first token, time per output token,
 * end-to-end latency and network wait (the requests' timeline is among the time charts); a service no request
 * arrived at has its row, empty, and a note saying so.
 */
final class InferenceSection {
    private InferenceSection() {}

    static void append(Page p, ReportData d) {
        // The services of summary.json's inference key first (a service no request arrived at is there too, with
        // requests 0; the same in memory and read back from a folder), then any other the requests name.
        Map<String, List<RequestRecord>> by = new LinkedHashMap<>();
        List<String> idle = new ArrayList<>();
        if (d.summary.get("inference") instanceof List<?> services) {
            for (Object o : services) {
                if (o instanceof Map<?, ?> m && m.get("service") instanceof String name) {
                    by.put(name, new ArrayList<>());
                    if (m.get("requests") instanceof Number n && n.longValue() == 0) {
                        idle.add(name);
                    }
                }
            }
        }
        if (d.requests.isEmpty() && by.isEmpty()) {
            return;
        }
        p.h2("Inference requests");
        for (RequestRecord r : d.requests) {
            by.computeIfAbsent(r.service(), k -> new ArrayList<>()).add(r);
        }
        List<String> heads = new ArrayList<>(List.of("service", "requests", "completed"));
        for (String m : new String[] {"TTFT", "TPOT", "E2E", "network wait"}) {
            heads.add(m + " p50 us");
            heads.add("p90");
            heads.add("p99");
        }
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, List<RequestRecord>> e : by.entrySet()) {
            List<RequestRecord> done = e.getValue().stream().filter(RequestRecord::completed).toList();
            List<String> r = new ArrayList<>(List.of(e.getKey(), String.valueOf(e.getValue().size()),
                    String.valueOf(done.size())));
            // TTFT over every request that had its first token, as the summary's: one still under way has it too.
            percentiles(r, e.getValue().stream().filter(q -> q.ttftPs() >= 0).mapToDouble(q -> q.ttftPs() / 1e6)
                    .toArray());
            percentiles(r, done.stream().filter(q -> !Double.isNaN(q.tpotPs())).mapToDouble(q -> q.tpotPs() / 1e6)
                    .toArray());
            percentiles(r, done.stream().mapToDouble(q -> q.e2ePs() / 1e6).toArray());
            percentiles(r, done.stream().filter(q -> q.idealEndPs() >= 0).mapToDouble(q -> q.networkWaitPs() / 1e6)
                    .toArray());
            rows.add(r);
        }
        p.table(heads, rows, 0);
        for (String name : idle) {
            if (by.get(name).isEmpty()) {
                p.note(name + ": 0 of 0 requests completed (no request arrived in its arrival window)");
            }
        }
        p.note("TTFT: arrival to the first output token of the first LLM call, over the requests that had it (completed"
                + " or not); TPOT, E2E and network wait over the completed requests. TPOT: decode time per output token after"
                + " the first. E2E: arrival to the answer delivered to the gateway. Network wait: E2E minus the same"
                + " request's ideal E2E with the same schedule. Ideal: " + ReportWriter.IDEAL_NETWORK
                + " Per call: llm_calls.csv. Nearest-rank percentiles.");
    }

    private static void percentiles(List<String> row, double[] v) {
        Arrays.sort(v);
        for (int p : new int[] {50, 90, 99}) {
            row.add(v.length == 0 ? "" : Fmt.us(v[Math.max(0, Math.min(v.length - 1,
                    (int) Math.ceil(p / 100.0 * v.length) - 1))]));
        }
    }
}
