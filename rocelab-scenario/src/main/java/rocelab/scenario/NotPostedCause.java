package rocelab.scenario;

import java.util.Locale;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.WorkloadDriver;

/**
 * Why a flow was never posted, in words, from the failure the driver recorded reaching it (the dependency it waited
 * for, followed back to the flow whose QP ran out of retries): what the journey of such a flow says instead of a post
 * time. Only identities the driver carried are named, never a flow that merely failed nearby in time.
 */
public final class NotPostedCause {
    private NotPostedCause() {}

    /** The sentence for flow {@code flow}, which the driver failed before it was posted. */
    public static String of(WorkloadDriver driver, int flow) {
        TaskGraph g = driver.graph();
        int t = g.flowTask(flow);
        int by = driver.failedBy(t);
        if (by == WorkloadDriver.OWN_QUEUE_PAIR) {
            return String.format(Locale.ROOT, "never posted: its QP %d ran out of retries at %s us, on %s, before the"
                    + " flow's turn", queuePair(driver, flow), us(driver.failedAtPs(t)),
                    postedOnQueuePair(driver, flow));
        }
        int root = by;
        int waits = 0;
        while (driver.failedBy(root) != WorkloadDriver.OWN_QUEUE_PAIR) {
            root = driver.failedBy(root);
            waits++;
        }
        StringBuilder b = new StringBuilder("never posted: it waited for ").append(task(g, by));
        if (root != by) {
            // Each link of the chain is a dependency the driver followed when it failed the task.
            b.append(", never ").append(g.flowIndex(by) >= 0 ? "posted" : "started").append(" either; the failure")
                    .append(" that reached it, ").append(waits + 1).append(" waits back, was ").append(task(g, root));
        }
        int rootFlow = g.flowIndex(root);
        if (driver.startedPs(rootFlow) >= 0) {
            b.append(String.format(Locale.ROOT, ", which FAILED at %s us: its QP %d ran out of retries",
                    us(driver.failedAtPs(root)), queuePair(driver, rootFlow)));
        } else {
            b.append(String.format(Locale.ROOT, ", itself never posted: its QP %d ran out of retries at %s us before"
                    + " its turn", queuePair(driver, rootFlow), us(driver.failedAtPs(root))));
        }
        return b.toString();
    }

    /** "flow 10 (h2 -> h3)", or "a compute task 57". */
    private static String task(TaskGraph g, int t) {
        int f = g.flowIndex(t);
        return f >= 0 ? "flow " + f + " (h" + g.flowSource(f) + " -> h" + g.flowDestination(f) + ")"
                : "a " + g.kind(t).name().toLowerCase(Locale.ROOT) + " task (task " + t + ")";
    }

    private static int queuePair(WorkloadDriver driver, int flow) {
        return driver.queuePair(flow) == null ? -1 : driver.queuePair(flow).id();
    }

    /** The flows posted on the QP of {@code flow} that failed with it: "flow 10" or "flows 10 and 11". */
    private static String postedOnQueuePair(WorkloadDriver driver, int flow) {
        int qp = queuePair(driver, flow);
        StringBuilder names = new StringBuilder();
        int n = 0;
        for (int i = 0; i < driver.flowCount(); i++) {
            if (queuePair(driver, i) == qp && driver.failed(i) && !driver.failedUnposted(i)) {
                names.append(n == 0 ? "" : ", ").append(i);
                n++;
            }
        }
        return n == 0 ? "an earlier message" : (n == 1 ? "flow " : "flows ") + names;
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
