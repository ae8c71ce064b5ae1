package rocelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.observe.RunResult;
import rocelab.observe.output.AtomicFiles;
import rocelab.observe.report.ComparisonReport;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.FabricMode;
import rocelab.scenario.FabricVariants;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.lint.Severity;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * {@code rocelab compare}: one scenario's topology and workload on several fabrics, one after the other, with one
 * table and one overlaid report. Each fabric's run keeps its own output folder inside the comparison's.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Run the same topology and workload on several fabrics (lossless RoCEv2 with PFC, lossy RoCEv2,"
                + " InfiniBand) and print one table; write one report that overlays them.",
            "Congestion control keeps its role: a RoCE control (e.g. dcqcn) becomes ib-cc on InfiniBand, ib-cc"
                    + " becomes dcqcn (hpcc-ns3 profile) on RoCE, and none stays none. PFC is on for roce-lossless"
                    + " only; a switch mtu keeps the payload it lets through. Each fabric keeps its own buffer defaults"
                    + " where the scenario cannot state them (a note under the table says which), and each variant is"
                    + " linted as it runs (not with -q)."})
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario YAML file.")
    Path scenario;

    @Option(names = "--example", paramLabel = "NAME", description = "Compare a built-in example instead of a file.",
            completionCandidates = RunCommand.ExampleNames.class)
    String example;

    @Option(names = "--modes", paramLabel = "MODE", split = ",",
            defaultValue = "roce-lossless,roce-lossy,infiniband",
            description = "Fabric modes to run, in order (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output folder (default: out/<scenario name>-compare/); each mode writes DIR/<mode>/.")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
    Long seed;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    @Option(names = "--debug", description = "Show stack traces of internal errors, and of running out of memory.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outWriter = spec.commandLine().getOut();
        String known = String.join(", ", Arrays.stream(FabricMode.values()).map(FabricMode::key).toList());
        List<FabricMode> chosen = new ArrayList<>();
        for (String m : modes) {
            FabricMode mode = FabricMode.fromKey(m.strip());
            if (mode == null) {
                err.println("error: --modes '" + m + "' is not a fabric mode; expected a comma-separated list of "
                        + known);
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            if (chosen.contains(mode)) {
                err.println("error: --modes names " + m + " twice; expected each mode once");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            chosen.add(mode);
        }
        ScenarioConfig base;
        String text;
        ScenarioReader reader = new ScenarioReader();
        try {
            if (example != null && scenario != null) {
                err.println("error: give either a SCENARIO file or --example, not both");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            if (example == null && scenario == null) {
                err.println("error: compare needs a SCENARIO file or --example NAME");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            // The text is read once: each mode's folder keeps a copy of what ran (scenario.yaml).
            text = reader.text(scenario, example);
            base = example != null ? reader.readExample(example) : reader.read(scenario, text);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (seed != null) {
            base = base.withSeed(seed);
        }
        Path dir = out != null ? out : Path.of("out", base.name() + "-compare");
        Set<String> modeFolders = new TreeSet<>();
        for (FabricMode m : FabricMode.values()) {
            modeFolders.add(m.key());
        }
        String unusable = OutputFolder.problem(dir, modeFolders);
        if (unusable != null) {
            err.println("error: " + (out != null ? "--out " : "output folder ") + dir + ": " + unusable);
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        List<ScenarioConfig> configs = new ArrayList<>();
        List<Simulation> simulations = new ArrayList<>();
        for (FabricMode mode : chosen) {
            try {
                ScenarioConfig c = FabricVariants.inMode(base, mode);
                configs.add(c);
                simulations.add(Simulation.assemble(c));
            } catch (IllegalArgumentException e) {
                // Told at the key that stops it; a refusal of the assembled variant, at the mode compare changed.
                String key = e instanceof FabricVariants.Refusal r ? r.key() : "fabric.mode";
                err.println("error: " + reader.keyProblem(scenario, example, key, "cannot run as " + mode.key() + ": "
                        + e.getMessage()).getMessage());
                return RocelabCommand.EXIT_BAD_INPUT;
            }
        }
        // Each variant is linted as it will run: a default of one fabric that handicaps it (an InfiniBand lane buffer
        // below its link's credit round trip) is said beside its row, and `rocelab lint` cannot lint a variant. With
        // --quiet nothing would print the findings, so it is skipped, as rocelab run skips it.
        List<LintReport> lints = new ArrayList<>();
        for (ScenarioConfig c : configs) {
            lints.add(quiet ? null : Lint.check(c));
        }
        List<ComparisonReport.Entry> entries = new ArrayList<>();
        // Written into a fresh copy of the folder that replaces the old one at the end (see OutputFolder).
        try (OutputFolder folder = OutputFolder.open(dir)) {
            for (int i = 0; i < chosen.size(); i++) {
                String key = chosen.get(i).key();
                if (!quiet) {
                    outWriter.println("running " + key + " ...");
                    outWriter.flush();
                }
                Progress progress = Progress.of(err, quiet).label(key);
                RunResult result = simulations.get(i).run(progress);
                progress.done();
                Path modeDir = folder.dir().resolve(key);
                ReportWriter.writeRun(modeDir, result, manifest(configs.get(i), base, chosen.get(i), lints.get(i)));
                AtomicFiles.write(modeDir.resolve(SCENARIO_COPY), scenarioCopy(text, chosen.get(i), base));
                entries.add(entry(key, result, base, configs.get(i), lints.get(i)));
            }
            new ComparisonReport(entries).write(folder.dir());
            folder.commit();
        } catch (IOException e) {
            err.println("error: cannot write the output " + dir + ": " + OutputFolder.describe(e, dir));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        ComparisonReport report = new ComparisonReport(entries);
        if (!quiet) {
            outWriter.println();
            outWriter.println("scenario " + base.name() + " · seed " + base.seed() + " · " + chosen.size()
                    + " fabrics");
            outWriter.print(report.table());
            outWriter.println("output    " + dir + " (compare.csv, report.html; each mode in its own folder)");
            outWriter.flush();
        }
        return 0;
    }

    /**
     * A mode's row: its run and the congestion controls it ran (with their profiles), and, when compare ran other
     * controls than the scenario's on this fabric, the scenario's and why.
     */
    private static ComparisonReport.Entry entry(String key, RunResult result, ScenarioConfig base,
            ScenarioConfig variant, LintReport lint) {
        List<FabricVariants.Control> ran = FabricVariants.controls(variant);
        String why = FabricVariants.substitution(base, variant);
        return new ComparisonReport.Entry(key, result,
                String.join("+", ran.stream().map(FabricVariants.Control::name).toList()),
                ran.stream().allMatch(c -> c.profile() == null) ? ""
                        : String.join("+", ran.stream().map(c -> c.profile() == null ? "" : c.profile()).toList()),
                why == null ? "" : String.join(" + ", FabricVariants.controls(base).stream().map(Object::toString)
                        .toList()),
                why == null ? "" : why, lint == null ? null : new ComparisonReport.Lint(lint.counts(),
                        lint.findings().stream().filter(f -> f.severity() != Severity.INFO)
                                .map(f -> f.severity().key() + " " + f.rule() + ": " + f.what()).toList()),
                FabricVariants.buffers(base, variant));
    }

    /** The copy of the scenario's text in each mode's folder. */
    static final String SCENARIO_COPY = "scenario.yaml";

    /**
     * A mode's manifest: the run's own (its scenario_sha256 is the mode's variant's), the scenario copy beside it as
     * its file, where that came from, and the fabric mode it ran as against the one the scenario states.
     */
    private Map<String, Object> manifest(ScenarioConfig variant, ScenarioConfig base, FabricMode mode,
            LintReport lint) {
        Map<String, Object> m = new LinkedHashMap<>(RunCommand.manifestExtras(variant));
        m.put("scenario_file", SCENARIO_COPY);
        m.put("compared_file", scenario != null ? scenario.toString() : "--example " + example);
        m.put("fabric_mode", mode.key());
        m.put("scenario_mode", base.mode().key());
        // The controls this mode ran, with their profiles (congestion_control above is nic.cc's name alone), and the
        // scenario's when compare ran others in their role on this fabric.
        m.put("congestion_controls", FabricVariants.controls(variant).stream().map(Object::toString).toList());
        String why = FabricVariants.substitution(base, variant);
        m.put("scenario_congestion_controls", why == null ? null
                : FabricVariants.controls(base).stream().map(Object::toString).toList());
        m.put("congestion_control_substituted_because", why);
        // The variant's lint, as rocelab run records its own: the mode's report shows the findings.
        if (lint != null) {
            m.put("lint", lint.manifestFindings());
        } else {
            m.put("lint_skipped", "--quiet");
        }
        return m;
    }

    /** The scenario's text as it was read, under a header that says how compare ran it and how to run it again. */
    private static String scenarioCopy(String text, FabricMode mode, ScenarioConfig base) {
        String as = mode == base.mode() ? "as written (fabric mode " + mode.key() + ")"
                : "as fabric mode " + mode.key() + " (it states " + base.mode().key() + "; compare converts what"
                        + " belongs to the fabric, see docs/outputs.md)";
        String says = "rocelab compare ran this scenario " + as + ", seed " + base.seed() + ". The same run again (a"
                + " file it names by a relative path is looked for beside this copy):";
        StringBuilder b = new StringBuilder("#");
        int lineStart = 0;
        for (String word : says.split(" ")) {
            if (b.length() - lineStart + word.length() + 1 > 100) {
                b.append("\n#");
                lineStart = b.length() - 1;
            }
            b.append(' ').append(word);
        }
        return b + "\n#   rocelab compare scenario.yaml --modes " + mode.key() + " --seed " + base.seed() + "\n"
                + text + (text.endsWith("\n") ? "" : "\n");
    }
}
