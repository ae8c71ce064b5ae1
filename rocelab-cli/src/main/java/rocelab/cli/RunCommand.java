package rocelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.FlowsCsvWriter;
import rocelab.observe.output.IoProblem;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pcap.PacketCapture;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.FlowsOutput;
import rocelab.scenario.MemoryBudget;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.RunManifest;
import rocelab.scenario.RunProgress;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.StreamedRun;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.scenario.read.UnitParser;
import rocelab.workload.job.JobSpec;

/** {@code rocelab run}: simulates a scenario (or the built-in demo), prints a summary and writes the output folder. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Simulate a scenario packet by packet, print a summary and write an output folder.",
            "With no SCENARIO, runs the built-in demo; --example NAME runs a built-in example."})
final class RunCommand implements Callable<Integer> {
    /** The built-in example names, for --help and completion. */
    static final class ExampleNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return ScenarioReader.exampleNames().iterator();
        }
    }

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario YAML file.")
    Path scenario;

    @Option(names = "--example", paramLabel = "NAME",
            description = "Run a built-in example instead of a file: ${COMPLETION-CANDIDATES}.",
            completionCandidates = ExampleNames.class)
    String example;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: out/<scenario name>/).")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
    Long seed;

    @Option(names = "--pcap", paramLabel = "FILE",
            description = "Write a packet capture (pcap, nanosecond timestamps) that Wireshark and tshark dissect.")
    Path pcap;

    @Option(names = "--pcap-links", paramLabel = "A-B", split = ",",
            description = "Capture only these links, by node names (e.g. leaf0-spine1,h0-leaf0); default: all.")
    List<String> pcapLinks = new ArrayList<>();

    @Option(names = "--pcap-flow", paramLabel = "ID", defaultValue = "-1",
            description = "Capture only this flow's frames (flow_id in flows.csv) and PFC frames.")
    int pcapFlow;

    @Option(names = "--pcap-qp", paramLabel = "QP", defaultValue = "-1",
            description = "Capture only this queue pair's frames (its flow's qp in flows.csv) and PFC frames.")
    int pcapQueuePair;

    @Option(names = "--pcap-from", paramLabel = "TIME", defaultValue = "0",
            description = "Capture from this simulated time (e.g. 100us).")
    String pcapFrom;

    @Option(names = "--pcap-to", paramLabel = "TIME", description = "Capture until this simulated time.")
    String pcapTo;

    @Option(names = "--pcap-max", paramLabel = "N", defaultValue = "200000",
            description = "Stop capturing after N frames (default: ${DEFAULT-VALUE}).")
    int pcapMax;

    @Option(names = "--ideal", description = "Run the workload on the ideal network only (the same as --model ideal):"
            + " no packets; every task's lower bound with only the RNICs at both ends and NVLink as capacities (a fast"
            + " best case no schedule can beat).")
    boolean idealOnly;

    // No picocli default: an explicit --model packet beside --ideal is a contradiction to refuse, not the default.
    @Option(names = "--model", paramLabel = "MODEL",
            description = "How to model the fabric: packet (default: every frame, queue, mark and pause), flow (flows"
                    + " as max-min fair fluids over the links of their ECMP paths: fast, for large clusters; no queues,"
                    + " ECN, PFC, pcap or journey) or ideal (as --ideal).")
    String model;

    @Option(names = "--threads", paramLabel = "N|auto", defaultValue = AUTO,
            description = "Run one packet-level simulation on up to N threads: the fabric is split into partitions of"
                    + " leaves that run in parallel, outputs byte-identical to one thread. Default auto: the"
                    + " machine's cores, at most one per leaf and one per 150 data packets the hosts can send per"
                    + " link delay, and one for a run under 1,000,000 data packets, chosen silently. Only traffic whose flows wait"
                    + " for nothing (permutation, all-to-all, incast, flow lists) and collective traffic items whose"
                    + " dependencies stay inside partitions (halving-doubling AllReduce, AlltoAll of at most 1 MiB per"
                    + " pair) or are rings, whose window between partitions is checked (a run that finds a send's last"
                    + " wait in another partition is run again on one thread: docs/parallel.md),"
                    + " without link events, an InfiniBand subnet manager sweep or --pcap, run in parallel; with an"
                    + " explicit N > 1 anything else runs on one thread, and a fabric of fewer leaves than N on one thread"
                    + " per leaf; either says why (stderr and summary.json threads_note).")
    String threads;

    @Option(names = "--strict", description = "Refuse to run (exit code 1) when rocelab lint finds errors.")
    boolean strict;

    @Option(names = {"-q", "--quiet"}, description = "Print no summary, progress or notes: only errors, and why an"
            + " explicit --threads N ran on fewer threads. Also skips the lint unless --strict asks for its verdict"
            + " (nothing would print its findings, and it costs memory a large run may not have): manifest.json"
            + " (lint_skipped) and the report then say that the lint did not run.")
    boolean quiet;

    @Option(names = "--debug", description = "Show stack traces of internal errors, and of running out of memory.")
    boolean debug;

    // For whoever works on the fixed cost of a run (BENCHMARKS.md), not for users: hidden from --help.
    @Option(names = "--timing", hidden = true, description = "Print on stderr where the process's time went, phase by"
            + " phase (wall and CPU).")
    boolean timing;

    private PhaseTimes phases = PhaseTimes.of(false, null);
    private Thread warmUp;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The default of {@code --threads}: as many as the machine and the run allow. */
    static final String AUTO = "auto";

    /** The cores {@code --threads auto} may use; tests replace it (CLI tests run one at a time). */
    private static IntSupplier processors = () -> Runtime.getRuntime().availableProcessors();

    /** Replaces the cores {@code --threads auto} sees (for tests); returns the previous supplier. */
    static IntSupplier processors(IntSupplier replacement) {
        IntSupplier previous = processors;
        processors = replacement;
        return previous;
    }

    /** Flow records from which flows.csv is started before the run's result is whole (see EarlyFlows). */
    private static int earlyFlowsFrom = RunWriter.FLOWS_ON_THEIR_OWN;

    /** Replaces the number of flows from which flows.csv is started early (for tests); returns the previous one. */
    static int earlyFlowsFrom(int replacement) {
        int previous = earlyFlowsFrom;
        earlyFlowsFrom = replacement;
        return previous;
    }

    /** What manifest.json adds to the run: the scenario file and what the report needs to draw thresholds. */
    static Map<String, Object> manifestExtras(ScenarioConfig config) {
        return RunManifest.extras(config);
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outWriter = spec.commandLine().getOut();
        phases = PhaseTimes.of(timing, err);
        phases.end("to the command");
        // The run ends with its report: its images' one-time set-up is done now, on the second core beside the
        // reading and the assembly, and joined before the loop so that the loop's time (summary.json) is its own.
        warmUp = ReportWriter.warmUpInBackground();
        ScenarioConfig config;
        try {
            // Sized for the model asked for: a flow-level run holds no queue pairs (an unknown --model is refused below).
            boolean flowLevel = idealOnly || !"packet".equals(modelKey());
            // --model flow may stream a workload too large to hold (observe: {flows: ...}, FlowsOutput).
            ScenarioReader reader = new ScenarioReader(MemoryBudget.ofJvm(flowLevel,
                    !idealOnly && "flow".equals(modelKey())));
            if (example != null && scenario != null) {
                err.println("error: give either a SCENARIO file or --example, not both");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            if (example != null && !ScenarioReader.exampleNames().contains(example)) {
                err.println("error: " + ScenarioReader.unknownExample(example).getMessage());
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            // Options that need no scenario are checked before it is read (a large job takes seconds to read).
            if (!AUTO.equals(threads) && parseThreads(threads) < 0) {
                err.println("error: --threads " + threads + "; expected auto or a number of threads 1..1024");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            // A folder named by --out is checked before the scenario is read: reading a large job takes seconds
            // and gigabytes, and it cannot make a folder that holds someone else's files usable.
            String unusable = out == null ? null : OutputFolder.problem(out, Set.of());
            if (unusable != null) {
                err.println("error: --out " + out + ": " + unusable);
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            config = example != null ? reader.readExample(example)
                    : scenario == null ? reader.readDemo() : reader.read(scenario);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        phases.end("read");
        if (seed != null) {
            config = config.withSeed(seed);
        }
        Simulation.Model chosen = Simulation.Model.byKey(modelKey()).orElse(null);
        if (chosen == null) {
            err.println("error: --model '" + model + "' is not a model; expected one of: packet, flow, ideal");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (idealOnly && model != null && chosen != Simulation.Model.IDEAL) {
            err.println("error: --ideal is the ideal model; expected either --ideal or --model " + model
                    + ", not both");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (idealOnly) {
            chosen = Simulation.Model.IDEAL;
        }
        if (chosen != Simulation.Model.PACKET && pcap != null) {
            err.println("error: --pcap needs packets; expected no --pcap with " + (idealOnly ? "--ideal"
                    : "--model " + chosen.key()));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        boolean streamed = StreamedRun.chosen(config, chosen);
        if (config.flowsOutput().choice() == FlowsOutput.Choice.AGGREGATED
                && chosen != Simulation.Model.FLOW) {
            err.println("error: " + config.flowsOutput().where() + ": flows: aggregated is a streamed run at flow level;"
                    + " expected --model flow, or flows: per-flow or auto");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (streamed && pcap != null) {
            err.println("error: --pcap needs packets; expected no --pcap with --model flow");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        // The lint runs on the second core while the fabric is assembled; its findings are printed before the run
        // starts, or as soon as they are there while it goes. With --quiet nothing would print them, so it runs only
        // when --strict needs its verdict.
        ScenarioConfig linted = config;
        CompletableFuture<LintReport> lintJob = strict || !quiet
                ? CompletableFuture.supplyAsync(() -> Lint.check(linted))
                : null;
        if (strict) {
            LintReport lint = lintResult(lintJob);
            if (lint.hasErrors() || !quiet && !lint.findings().isEmpty()) {
                err.print(LintBlock.render(lint, lint.hasErrors()));
                err.flush();
            }
            if (lint.hasErrors()) {
                return 1;
            }
        }
        Path dir = out != null ? out : Path.of("out", config.name());
        // The default folder is named after the scenario, so only now can it be checked (--out was, before reading).
        String unusable = out != null ? null : OutputFolder.problem(dir, Set.of());
        if (unusable != null) {
            err.println("error: output folder " + dir + ": " + unusable);
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        // Every flag is checked before the fabric is assembled, so a typo costs nothing.
        long from = 0;
        long to = Long.MAX_VALUE;
        if (pcap != null) {
            String bad = pcapProblem(dir, config);
            if (bad != null) {
                err.println("error: " + bad);
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            from = UnitParser.timePs(pcapFrom);
            to = pcapTo == null ? Long.MAX_VALUE : UnitParser.timePs(pcapTo);
        } else {
            for (String flag : new String[] {"--pcap-links", "--pcap-flow", "--pcap-qp", "--pcap-from", "--pcap-to",
                "--pcap-max"}) {
                if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                    err.println("error: " + flag + " selects what --pcap captures; expected --pcap FILE with it");
                    return RocelabCommand.EXIT_BAD_INPUT;
                }
            }
        }
        if (!quiet) {
            // What an imported workload has that the model does not run, said once per job before the run.
            for (JobSpec j : config.jobs()) {
                for (String note : j.notes()) {
                    err.println("note: job " + j.name() + ": " + note);
                }
            }
        }
        // 0: automatic. An explicit N is what the user asked for, so a run that cannot use it says why.
        int asked = AUTO.equals(threads) ? 0 : parseThreads(threads); // valid: checked before the reading
        if (streamed) {
            if (!quiet) {
                err.println("note: the run is streamed (tasks added as it reaches them) and its flows aggregated into "
                        + RunWriter.FLOWS_AGGREGATED + ": " + StreamedRun.reason(config)
                        + "; its ideal network time is its ranks' last tasks' own bounds, without the whole graph's"
                        + " walk over all the collective's transfers, so it can be lower than a whole run's (a looser"
                        + " bound, never above it)");
            }
            // A streamed run is flow level: one thread, as every run that is not packet level.
            String streamedNote = asked > 1 ? "asked for " + asked + " threads, ran on one: only the packet level is"
                    + " partitioned (this run is flow level)" : null;
            if (streamedNote != null) {
                err.println("note: " + streamedNote);
            }
            StreamedRun run = StreamedRun.assemble(config);
            if (lintJob != null) {
                LintReport lint = lintResult(lintJob);
                if (!strict && !lint.findings().isEmpty()) {
                    err.print(LintBlock.render(lint, false));
                    err.flush();
                }
            }
            Progress progress = Progress.of(err, quiet);
            RunResult result = run.result(progress, streamedNote);
            progress.done();
            return write(dir, config, result, lintJob, null, null, null, err, outWriter);
        }
        String threadsNote = null;
        Simulation simulation;
        phases.end("checks");
        if (pcap != null || asked == 1) {
            if (asked > 1) {
                threadsNote = "asked for " + asked + " threads, ran on one: --pcap logs frames of every link in order";
            }
            simulation = Simulation.assemble(config, chosen, 1);
        } else if (asked == 0) {
            // Silent whatever it chooses: the outputs (summary.json's threads_note included) are the same on any
            // machine; the parallel line below says how it ran.
            simulation = Simulation.assembleAutomatic(config, chosen, Math.max(1, processors.getAsInt()));
        } else {
            simulation = Simulation.assemble(config, chosen, asked);
        }
        phases.end("assemble");
        if (threadsNote == null) {
            threadsNote = simulation.threadsNote();
        } else {
            simulation.threadsNote(threadsNote);
        }
        if (threadsNote != null) {
            err.println("note: " + threadsNote);
        }
        // The lint's findings, printed now if it has finished, else as soon as it has while the run goes (the loop
        // does not wait for it: bench-B2's lint ends about 0.2 s after the assembly).
        CompletableFuture<String> lintText = !strict && lintJob != null
                ? lintJob.thenApply(l -> l.findings().isEmpty() ? "" : LintBlock.render(l, false)) : null;
        phases.end("lint wait");
        PacketCapture capture = null;
        if (pcap != null) {
            if (pcapFlow >= simulation.driver().flowCount()) {
                err.println("error: --pcap-flow " + pcapFlow + " does not exist; expected 0.."
                        + (simulation.driver().flowCount() - 1) + " (flow_id in flows.csv)");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            int queuePairs = simulation.network().queuePairs().size();
            if (pcapQueuePair >= queuePairs) {
                err.println("error: --pcap-qp " + pcapQueuePair + " does not exist; expected " + (queuePairs == 0
                        ? "no --pcap-qp (the run has no queue pairs)" : "0.." + (queuePairs - 1) + " (qp in flows.csv)"));
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            int qp = pcapFlow >= 0 ? simulation.driver().queuePair(pcapFlow).id() : pcapQueuePair;
            capture = new PacketCapture(simulation.network(), config.vlanTagged(), pcapLinks, qp, from, to, pcapMax);
            if (pcapFlow >= 0) {
                // Its queue pair may carry other flows' messages too (a collective's steps): only this one's.
                capture.onlyMessage(pcapFlow);
            }
        }
        try {
            warmUp.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        phases.end("warm-up wait");
        Progress progress = Progress.of(err, quiet);
        if (lintText != null) {
            progress.printWhenReady(lintText);
        }
        // The run is written into a fresh copy of the folder that replaces the old one at the end, so a killed run
        // never leaves this run's files next to an earlier run's. It is opened before the run: a run with millions
        // of flows starts flows.csv there as soon as its flow records exist, beside the ideal figures still being
        // made on the other core (FlowsCsvWriter), instead of after them.
        OutputFolder folder = openFolder(dir, err);
        if (folder == null) {
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        EarlyFlows early = new EarlyFlows(folder.dir());
        try (folder; early) {
            // The run's own phases after the event loop (its records, the wait for the ideal figures) end in --timing.
            RunResult result = simulation.run(new ProgressListener() {
                @Override
                public void onProgress(RunProgress p) {
                    progress.onProgress(p);
                }

                @Override
                public void onPhase(String name) {
                    phases.end(name);
                }

                @Override
                public void onFlowRecords(List<FlowRecord> flows, PfcLog pfcLog, CreditLog creditLog,
                        EcmpLog ecmpLog, long endPs, boolean packetLevel) {
                    early.start(flows, pfcLog, creditLog, ecmpLog, endPs, packetLevel);
                }
            });
            progress.done();
            // -q still says why an explicit --threads N ran on one thread (its threads_note), as for a note given at
            // the assembly; an automatic choice stays silent.
            if (simulation.startedOver() != null && !quiet) {
                err.println("note: " + simulation.startedOver());
            } else if (simulation.startedOver() != null && asked > 1) {
                err.println("note: " + simulation.threadsNote());
            }
            phases.end("the rest of the run");
            return write(folder, dir, config, result, lintJob, capture, pcap, simulation, err, outWriter,
                    early.writer());
        }
    }

    /**
     * flows.csv started before the run's result is complete, when the run has so many flows that RunWriter would
     * write the file on a thread of its own anyway: the same file, sooner. Closing it waits for the writer, so that
     * nothing writes into the folder once it is discarded.
     */
    private static final class EarlyFlows implements AutoCloseable {
        private final Path dir;
        private FlowsCsvWriter writer;

        EarlyFlows(Path dir) {
            this.dir = dir;
        }

        void start(List<FlowRecord> flows, PfcLog pfcLog, CreditLog creditLog, EcmpLog ecmpLog, long endPs,
                boolean packetLevel) {
            if (writer == null && flows.size() >= earlyFlowsFrom) {
                writer = FlowsCsvWriter.start(dir, flows, pfcLog, creditLog, ecmpLog, endPs, packetLevel);
            }
        }

        FlowsCsvWriter writer() {
            return writer;
        }

        @Override
        public void close() {
            if (writer != null) {
                writer.close();
            }
        }
    }

    /** Writes the run's folder (and capture) and prints its summary; the exit code ({@code simulation}: null when streamed). */
    private Integer write(Path dir, ScenarioConfig config, RunResult result,
            CompletableFuture<LintReport> lintJob, PacketCapture capture,
            Path pcap, Simulation simulation, PrintWriter err, PrintWriter outWriter) throws Exception {
        OutputFolder folder = openFolder(dir, err);
        if (folder == null) {
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        try (folder) {
            return write(folder, dir, config, result, lintJob, capture, pcap, simulation, err, outWriter, null);
        }
    }

    /** The run's fresh output folder for {@code dir}, or null when it cannot be made (said on {@code err}). */
    private static OutputFolder openFolder(Path dir, PrintWriter err) {
        try {
            return OutputFolder.open(dir);
        } catch (IOException e) {
            err.println("error: cannot write the output " + dir + ": " + OutputFolder.describe(e, dir));
            return null;
        }
    }

    /**
     * Writes the run's files into {@code folder} (the fresh copy of {@code dir}), with flows.csv already started by
     * {@code flows} (null: not started), commits it and prints the run's summary; the exit code.
     */
    private Integer write(OutputFolder folder, Path dir, ScenarioConfig config, RunResult result,
            CompletableFuture<LintReport> lintJob, PacketCapture capture,
            Path pcap, Simulation simulation, PrintWriter err, PrintWriter outWriter,
            FlowsCsvWriter flows) throws Exception {
        if (capture != null) {
            try {
                capture.write(folder.redirect(pcap));
            } catch (IOException e) {
                // Checked before the run, so only a disk that filled up or changed since lands here.
                err.println("error: --pcap " + pcap + ": cannot write the capture (" + IoProblem.cause(e) + ")");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
        }
        try {
            // The folder's files and the report, written side by side; summary.json last. The lint's errors and
            // warnings (when it ran) go into the manifest, and so into the report's findings.
            Map<String, Object> manifest = new LinkedHashMap<>(manifestExtras(config));
            if (example != null) {
                // A built-in example has no file of its own: name it, not as the demo.
                manifest.put("scenario_file", "(built-in example " + example + ")");
            }
            if (lintJob != null) {
                manifest.put("lint", lintResult(lintJob).manifestFindings());
            } else {
                // -q skips the lint (its paths cost memory a large run may not have): say so, rather than let the
                // report's findings read as if it found nothing.
                manifest.put("lint_skipped", "--quiet");
            }
            ReportWriter.writeRun(folder.dir(), result, manifest, flows);
            folder.commit();
            phases.end("outputs and report");
        } catch (IOException e) {
            err.println("error: cannot write the output " + dir + ": " + OutputFolder.describe(e, dir));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (!quiet) {
            outWriter.print(SummaryText.render(result, dir.toString()));
            var partitioned = simulation == null ? null : simulation.partitionedSimulator();
            if (partitioned != null) {
                // How the partitioned run went (not in the outputs, which are one thread's): in counts that do not
                // depend on the machine, then what this machine's threads spent waiting, the reason a run on N
                // threads is less than N times faster.
                long windows = Math.max(1, partitioned.windows());
                long events = partitioned.eventsProcessed();
                int parts = partitioned.partitions();
                outWriter.printf("parallel  %d partitions on %d threads: %,d windows, %,.0f events per window,"
                        + " busiest partition %.2fx its share, %,d frames crossed; the threads waited %.0f %% of"
                        + " their time at the windows' ends (%.0f %% while one of them worked alone between windows)%n",
                        parts, simulation.threads(), partitioned.windows(), (double) events / windows,
                        partitioned.busiestPartitionEvents() * (double) parts / Math.max(1, events),
                        simulation.network().crossings(), 100 * partitioned.waitShare(),
                        100 * partitioned.serialShare() * (simulation.threads() - 1));
            }
            if (capture != null) {
                outWriter.printf("capture   %s (%d frames%s)%n", pcap, capture.frames(),
                        capture.frames() >= pcapMax ? ", budget reached" : "");
            }
            outWriter.flush();
        }
        phases.end("summary text");
        phases.print();
        return 0;
    }

    /** An explicit {@code --threads} value, 1..1024, or -1 when it is not one. */
    static int parseThreads(String value) {
        if (value == null || value.isEmpty() || value.length() > 4 || !value.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        int n = Integer.parseInt(value);
        return n >= 1 && n <= 1024 ? n : -1;
    }

    /** What is wrong with the --pcap flags, or null: checked before the fabric is assembled. */
    private String pcapProblem(Path dir, ScenarioConfig config) {
        String file = OutputFolder.fileProblem(pcap, dir);
        if (file != null) {
            return "--pcap " + pcap + ": " + file;
        }
        long from;
        long to;
        try {
            from = UnitParser.timePs(pcapFrom);
            to = pcapTo == null ? Long.MAX_VALUE : UnitParser.timePs(pcapTo);
        } catch (IllegalArgumentException e) {
            return "--pcap-from/--pcap-to: " + e.getMessage();
        }
        if (to <= from) {
            return "--pcap-to " + pcapTo + " is not after --pcap-from " + pcapFrom
                    + "; expected an end time later than the start";
        }
        if (pcapFlow < -1) {
            return "--pcap-flow " + pcapFlow + " is not a flow; expected a flow_id of flows.csv (0 or more)";
        }
        if (pcapQueuePair < -1) {
            return "--pcap-qp " + pcapQueuePair + " is not a queue pair; expected a qp of flows.csv (0 or more)";
        }
        if (pcapFlow >= 0 && pcapQueuePair >= 0) {
            return "--pcap-flow and --pcap-qp both select frames; expected one of them";
        }
        if (pcapMax < 1) {
            return "--pcap-max " + pcapMax + " is too small; expected at least 1 frame";
        }
        if (!pcapLinks.isEmpty()) {
            Topology topology = config.topology().build();
            String unknown = PacketCapture.unknownLink(topology, pcapLinks);
            if (unknown != null) {
                var e = topology.edges().get(topology.edges().size() - 1);
                return "--pcap-links '" + unknown + "' is not a link of the topology; expected node names joined by"
                        + " '-', e.g. " + topology.nodeName(e.a().node()) + "-" + topology.nodeName(e.b().node());
            }
        }
        return null;
    }

    /** The lint's report; an internal error in it surfaces as itself, not wrapped. */
    private static LintReport lintResult(
            CompletableFuture<LintReport> job) {
        try {
            return job.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** The model asked for with --model, packet when none was. */
    private String modelKey() {
        return model == null ? "packet" : model;
    }
}
