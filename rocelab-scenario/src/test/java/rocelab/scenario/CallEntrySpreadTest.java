package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;

/**
 * A job's call counts its time from its last member's entry, so when ranks enter a call apart their wait for the late
 * one is theirs, not the call's. An outside audit ran a data-parallel job whose warm-up AllReduce was slowed by an
 * incast into one rank's host: the warm-up's call ended on its ranks far apart, the first measured call's members
 * entered it that far apart, and the summary said the GPUs waited on the network while "no call after the warm-up"
 * was slow, with nothing to say where the wait was. collectives.csv now has each call's {@code entry_spread_us}, and
 * the summary names the widest when no slow call explains the wait.
 */
class CallEntrySpreadTest {
    @TempDir
    Path tmp;

    private static final String JOB = """
            name: entry-spread
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            jobs:
              - name: train
                hosts: [0, 1, 2, 4]
                parallelism: {dp: 4}
                iterations: 3
                warmup: 1
                program:
                  - {id: fwd, op: compute, duration: 100us}
                  - {id: grads, op: allreduce, group: dp, size-total: 8MB}
                  - {id: opt, op: compute, duration: 20us}
            """;

    private static RunResult run(String scenario) {
        return Simulation.assemble(Scenarios.parse(scenario)).run(ProgressListener.NONE);
    }

    @Test
    void shouldMeasureEachCallsEntrySpreadAsItsRanksEnteredIt() throws Exception {
        RunResult r = run(JOB + """
                traffic:
                  - {kind: incast, senders: 5-7, receiver: 1, size: 2MB, start: 150us}
                """);
        ReportWriter.writeRun(tmp, r, Map.of());
        // Each rank enters the AllReduce when its forward step ends (the program's order): read those ends from
        // timeline.json, an account of the task times written apart from the call records.
        JsonNode events = new ObjectMapper().readTree(tmp.resolve("timeline.json").toFile()).get("traceEvents");
        List<CollectiveRecord> calls = r.collectives();
        assertThat(calls).hasSize(3);
        for (CollectiveRecord c : calls) {
            List<Double> entries = new ArrayList<>();
            for (JsonNode e : events) {
                if ("fwd".equals(e.path("name").asText()) && e.path("args").path("iteration").asInt()
                        == c.iteration()) {
                    entries.add(e.get("ts").asDouble() + e.get("dur").asDouble());
                }
            }
            assertThat(entries).hasSize(4);
            double first = entries.stream().mapToDouble(x -> x).min().orElseThrow();
            double last = entries.stream().mapToDouble(x -> x).max().orElseThrow();
            assertThat(c.startPs() / 1e6).as("a call starts at its last member's entry").isCloseTo(last,
                    Offset.offset(1e-6));
            assertThat(c.entrySpreadPs() / 1e6).as("iteration " + c.iteration()).isCloseTo(last - first,
                    Offset.offset(1e-6));
        }
        // The warm-up's call, slowed by the incast into h1, ended on its ranks far apart; the next call's entries
        // are that far apart (hundreds of microseconds), the one after it back in step.
        assertThat(calls.get(0).entrySpreadPs()).isZero();
        assertThat(calls.get(1).entrySpreadPs()).isGreaterThan(200_000_000L);
        assertThat(calls.get(2).entrySpreadPs()).isLessThan(20_000_000L);
        assertThat(calls.get(1).networkSlowdown()).isLessThan(1.05);

        // collectives.csv has it, beside start_us.
        List<String> csv = Files.readAllLines(tmp.resolve("collectives.csv"));
        List<String> header = Arrays.asList(csv.get(0).split(","));
        int col = header.indexOf("entry_spread_us");
        assertThat(col).isEqualTo(header.indexOf("start_us") + 1);
        assertThat(csv.get(2).split(",")[col]).isEqualTo(String.format(Locale.ROOT, "%.6f",
                calls.get(1).entrySpreadPs() / 1e6).replaceAll("0+$", "").replaceAll("\\.$", ""));

        // The summary: the GPUs waited, no measured call was slow, and the entry line says where the wait is.
        String text = SummaryText.render(r, null);
        assertThat(text).contains("no call after the warm-up over 1.05x its ideal");
        // Data-parallel ranks: their entries' bounds on the ideal network are together, but for the ring's path
        // latencies (h4 is on the other leaf): microseconds.
        assertThat(calls).allSatisfy(c -> assertThat(c.idealEntrySpreadPs()).isBetween(0L, 20_000_000L));
        assertThat(text).contains(String.format(Locale.ROOT, "  entry     train/grads/dp in iteration 1 (the first after"
                + " the warm-up): its ranks entered it %.3f ms apart, their entries' bounds on the ideal network"
                + " %.3f ms; a call's time counts from its last rank's entry, so the others' wait is in their exposed"
                + " communication and idle time, not in the call's (collectives.csv entry_spread_us)\n",
                calls.get(1).entrySpreadPs() / 1e9, calls.get(1).idealEntrySpreadPs() / 1e9));

        // And why, by the dependencies: the rank that entered last did so when its part of the warm-up's call ended
        // (then its forward step and optimizer, the same on every rank). Checked against timeline.json's ends of
        // each rank's forward step in iteration 1 and of its part of the AllReduce in iteration 0.
        int[] hosts = {0, 1, 2, 4};
        double[] entry = new double[4];
        double[] warmupEnd = new double[4];
        for (JsonNode e : events) {
            int rank = Arrays.binarySearch(hosts, e.path("pid").asInt());
            int iteration = e.path("args").path("iteration").asInt(-1);
            double end = e.path("ts").asDouble() + e.path("dur").asDouble();
            if ("fwd".equals(e.path("name").asText()) && iteration == 1) {
                entry[rank] = end;
            } else if (e.path("name").asText().startsWith("allreduce") && iteration == 0) {
                warmupEnd[rank] = end;
            }
        }
        int lastRank = 0;
        int firstRank = 0;
        for (int i = 1; i < 4; i++) {
            lastRank = entry[i] > entry[lastRank] ? i : lastRank;
            firstRank = entry[i] < entry[firstRank] ? i : firstRank;
        }
        CollectiveRecord.LateEntry late = calls.get(1).lateEntry();
        assertThat(late.rank()).isEqualTo(lastRank);
        assertThat(late.firstRank()).isEqualTo(firstRank);
        assertThat(late.after()).isEqualTo("train/grads/dp");
        assertThat(late.afterIteration()).isZero();
        assertThat(late.ownPart()).isTrue();
        assertThat(late.behindFirstPs() / 1e6).isCloseTo(warmupEnd[lastRank] - warmupEnd[firstRank],
                Offset.offset(1e-6));
        assertThat(calls.get(0).networkSlowdown()).isGreaterThan(1.05);
        assertThat(text).contains(String.format(Locale.ROOT, "            rank %d entered it last, when its part of"
                + " train/grads/dp in iteration 0 ended, %.3f ms after rank %d's part (the first rank in); that call"
                + " took x%.2f its ideal, in the warm-up\n", lastRank, late.behindFirstPs() / 1e9, firstRank,
                calls.get(0).networkSlowdown()));
        assertThat(calls.get(0).lateEntry()).as("looked for in the named call only")
                .isEqualTo(CollectiveRecord.LateEntry.NONE);

        // A job's call has its flows' rate_held_share too (it was empty): the warm-up's, slowed by the incast,
        // recomputed from flows.csv: the job's flows are those from its hosts (the incast's come from h5-h7), in
        // flow order the three iterations' calls' in turn, as many each.
        List<String> flows = Files.readAllLines(tmp.resolve("flows.csv"));
        List<String> fh = Arrays.asList(flows.get(0).split(","));
        List<String[]> job = new ArrayList<>();
        for (String line : flows.subList(1, flows.size())) {
            String[] c = line.split(",", -1);
            if (Integer.parseInt(c[fh.indexOf("src")]) <= 4) {
                job.add(c);
            }
        }
        assertThat(job.size() % 3).isZero();
        double held = 0;
        double lives = 0;
        for (String[] c : job.subList(0, job.size() / 3)) {
            held += Double.parseDouble(c[fh.indexOf("rate_held_us")]);
            lives += Double.parseDouble(c[fh.indexOf("fct_us")]);
        }
        assertThat(calls.get(0).rateHeldShare()).isCloseTo(held / lives, Offset.offset(1e-6)).isGreaterThan(0.1);
        assertThat(csv.get(1).split(",", -1)[header.indexOf("rate_held_share")]).isNotEmpty();
    }

    @Test
    void shouldSayNothingOfEntriesWhenTheRanksStayInStep() {
        RunResult r = run(JOB);
        assertThat(r.collectives()).allSatisfy(c -> assertThat(c.entrySpreadPs()).isBetween(0L, 20_000_000L));
        assertThat(SummaryText.render(r, null)).doesNotContain("  entry ");
    }
    @Test
    void shouldGiveNoStartToACallNotEveryRankEnteredBeforeTheRunStopped() throws Exception {
        // Iteration 2's call: the run stops while its ranks are still in iteration 1's. It was written as started at 0.
        RunResult r = run(JOB + "run: {stop-at: 1300us}\n");
        List<CollectiveRecord> calls = r.collectives();
        assertThat(calls).hasSize(3);
        assertThat(calls.get(0).completed()).isTrue();
        assertThat(calls.get(2).completed()).isFalse();
        assertThat(calls.get(2).startPs()).as("never started").isEqualTo(-1);
        assertThat(calls.get(2).entrySpreadPs()).isEqualTo(-1);
        assertThat(calls.get(2).beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        ReportWriter.writeRun(tmp, r, Map.of());
        List<String> csv = Files.readAllLines(tmp.resolve("collectives.csv"));
        List<String> header = Arrays.asList(csv.get(0).split(","));
        String[] row = csv.get(3).split(",", -1);
        assertThat(row[header.indexOf("iteration")]).isEqualTo("2");
        assertThat(row[header.indexOf("start_us")]).isEmpty();
        assertThat(row[header.indexOf("entry_spread_us")]).isEmpty();
        assertThat(row[header.indexOf("status")]).isEqualTo("unfinished");
        assertThat(Files.readString(tmp.resolve("report.html"))).contains("not started");
    }
    @Test
    void shouldFindAPipelinesStagesEnteringApartByDesignOnTheIdealNetworkToo() {
        // Stage 0 enters the AllReduce over both stages when its send of activations is acknowledged, stage 1 only
        // after its own compute on them: 200 us apart by the program, on any network. The audit saw the entry line
        // name such a call (train-3d-rail's embedding AllReduce, 2.252 ms apart) as if it explained the wait.
        RunResult r = run("""
                name: pipeline-entry
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                jobs:
                  - name: pipe
                    hosts: 0-1
                    parallelism: {pp: 2}
                    iterations: 1
                    program:
                      - {id: fwd, op: compute, duration: 100us, when: "pp == 0"}
                      - {id: tx, op: send, peer: pp+1, size: 1MB, when: "pp == 0", after: [fwd]}
                      - {id: rx, op: recv, peer: pp-1, when: "pp == 1"}
                      - {id: work, op: compute, duration: 200us, when: "pp == 1", after: [rx]}
                      - {id: emb, op: allreduce, group: pp, size-total: 1MB}
                """);
        CollectiveRecord emb = r.collectives().get(0);
        assertThat(emb.entrySpreadPs()).as("about the stage's 200 us").isGreaterThan(150_000_000L);
        assertThat(Math.abs(emb.entrySpreadPs() - emb.idealEntrySpreadPs())).as("the ideal network's bounds as far"
                + " apart").isLessThan(emb.entrySpreadPs() / 20);
        assertThat(SummaryText.render(r, null)).doesNotContain("  entry ");
    }
}
