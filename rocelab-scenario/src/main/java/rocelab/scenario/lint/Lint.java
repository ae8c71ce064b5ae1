package rocelab.scenario.lint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.scenario.FabricMode;
import rocelab.scenario.ScenarioConfig;

/**
 * Checks that a scenario's fabric is configured consistently along every path its traffic can take: the rules of
 * the reference list of RoCE misconfigurations (L1..L17) that apply to what rocelab models, L18 (load balancing
 * that reorders towards in-order RNICs), L19 (TIMELY thresholds out of reach of the base RTTs), L20 (traffic that
 * starts after the stop time), L21 (InfiniBand lane buffers below their link's credit round trip) and the rules
 * after it (docs/lint.md lists them all, up to L28: a static XOFF the shared pool cannot reach).
 */
public final class Lint {
    /** The rules, in reference order. */
    static final List<LintRule> RULES = List.of(new DscpClassRule(), new PfcEnableRule(), new HeadroomRule(),
            new HeadroomBudgetRule(), new EcnBeforePfcRule(), new EcnEnabledRule(), new TrustRule(),
            new TrafficClassUnsetRule(), new DcqcnEnabledRule(), new CnpPriorityRule(), new MtuRule(),
            new WatchdogRule(), new PauseStormRule(), new BufferCycleRule(), new SchedulerRule(),
            new ReorderingRule(), new TimelyThresholdRule(), new DctcpMarkingRule(), new SwiftTargetRule(), new StartAfterStopRule(), new CreditLoopRule(),
            new SharedGpuRule(), new CrossRailRule(), new UnevenPathsRule(), new IdealSlowLinksRule(),
            new UnreachableXoffRule(), new ImportNotesRule());

    /** Rules of the reference list that do not apply, and why. */
    public static final Map<String, String> NOT_APPLICABLE = Map.of(
            "L15", "802.3x global pause and DCBX negotiation are not modelled: links carry PFC only",
            "L17", "there are no ASIC or speed profiles: buffer, thresholds and headroom are given as numbers"
                    + " (L3 and L4 check the numbers themselves)");

    private Lint() {}

    public static LintReport check(ScenarioConfig config) {
        LintContext context = new LintContext(config);
        Findings findings = new Findings();
        for (LintRule rule : RULES) {
            rule.check(context, findings);
        }
        if (context.truncated()) {
            findings.add(new LintRule() {
                @Override
                public String id() {
                    return "L0";
                }

                @Override
                public String title() {
                    return "Paths sampled";
                }

                @Override
                public void check(LintContext c, Findings out) {}
            }, Severity.INFO, List.of(), List.of(), "the traffic has more than " + LintContext.MAX_PATHS
                    + " paths; the rules saw the first ones", "findings on the other paths may be missing",
                    "lint a smaller traffic pattern on the same fabric");
        }
        return new LintReport(config.name(), findings.list(), context.flows().size(),
                context.dataPaths().size(), context.topology().switchCount(), context.topology().hostCount(),
                config.mode() == FabricMode.INFINIBAND, context.allFlows());
    }

    /** The ids and titles of the rules that run. */
    public static Map<String, String> rules() {
        Map<String, String> out = new LinkedHashMap<>();
        for (LintRule r : RULES) {
            out.put(r.id(), r.title());
        }
        return out;
    }
}
