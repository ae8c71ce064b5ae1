package rocelab.observe.inference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import rocelab.observe.flow.Percentiles;

/** Percentiles of the requests of each inference service, for summary.json and the printed summary. */
public final class InferenceTables {
    private InferenceTables() {}

    /**
     * One service's latency percentiles, in microseconds: TTFT over its requests with a first token (a request still
     * under way at the run's end had its first token when it had it; {@code unfinishedTtft} of them did not
     * complete), TPOT, E2E, ideal E2E and network wait over its completed requests (TPOT over those that made more
     * than one token in a call). {@code record}: the service itself (its span and what ran beside it).
     */
    public record ServiceStats(String service, int requests, int completed, Percentiles ttft, Percentiles tpot,
            Percentiles e2e, Percentiles idealE2e, Percentiles networkWait, int unfinishedTtft, ServiceRecord record) {}

    /**
     * Per service: those of {@code services} in their order (with no request, too), then any other service the
     * requests name (a run folder read back has only its requests), in the order they first appear.
     */
    public static List<ServiceStats> stats(List<ServiceRecord> services, List<RequestRecord> requests) {
        Map<String, ServiceRecord> records = new LinkedHashMap<>();
        Map<String, List<RequestRecord>> by = new LinkedHashMap<>();
        for (ServiceRecord s : services) {
            records.put(s.service(), s);
            by.put(s.service(), new ArrayList<>());
        }
        for (RequestRecord r : requests) {
            by.computeIfAbsent(r.service(), k -> new ArrayList<>()).add(r);
        }
        List<ServiceStats> out = new ArrayList<>();
        for (Map.Entry<String, List<RequestRecord>> e : by.entrySet()) {
            List<RequestRecord> done = e.getValue().stream().filter(RequestRecord::completed).toList();
            List<RequestRecord> firstToken = e.getValue().stream().filter(r -> r.ttftPs() >= 0).toList();
            out.add(new ServiceStats(e.getKey(), e.getValue().size(), done.size(),
                    of(firstToken, RequestRecord::ttftPs),
                    new Percentiles(done.stream().filter(r -> !Double.isNaN(r.tpotPs()))
                            .mapToLong(r -> Math.round(r.tpotPs())).toArray()),
                    of(done, RequestRecord::e2ePs), of(done, RequestRecord::idealE2ePs),
                    of(done, RequestRecord::networkWaitPs),
                    (int) firstToken.stream().filter(r -> !r.completed()).count(),
                    records.getOrDefault(e.getKey(), new ServiceRecord(e.getKey(), -1, -1))));
        }
        return out;
    }

    private static Percentiles of(List<RequestRecord> rs, ToLongFunction<RequestRecord> f) {
        return new Percentiles(rs.stream().mapToLong(f).toArray());
    }
}
