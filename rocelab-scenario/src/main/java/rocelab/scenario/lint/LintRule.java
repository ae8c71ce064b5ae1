package rocelab.scenario.lint;

/** One consistency rule; it reads the resolved fabric and the paths of the traffic and reports what it finds. */
public interface LintRule {
    /** The rule id: L1..L17 of the reference list, L18 and up beyond it, I1 for import notes. */
    String id();

    /** A short name, e.g. "RoCE DSCP mapped to a lossy class". */
    String title();

    void check(LintContext context, Findings out);
}
