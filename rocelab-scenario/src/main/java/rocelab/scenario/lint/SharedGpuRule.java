package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import rocelab.observe.output.Numbers;
import rocelab.workload.inference.InferenceSpec;
import rocelab.workload.inference.ServingInstance;
import rocelab.workload.job.JobSpec;

/**
 * L24: a GPU (a host) that two workload items compute on: a job's rank and an inference instance, two jobs' ranks,
 * or two services' instances. rocelab gives each item its GPUs to itself: their compute steps run at once, each at
 * full speed, so neither item's times hold the other's compute, while their flows do share the RNIC (and that
 * sharing shows as network wait). An outside audit put a training rank and a prefill instance on one GPU: both
 * computed at full speed at once, and the request's whole extra latency read as network wait. Not an error: sharing
 * the RNIC on purpose, with the compute taken as given, is a way to study the network alone.
 */
final class SharedGpuRule implements LintRule {
    @Override
    public String id() {
        return "L24";
    }

    @Override
    public String title() {
        return "A GPU that two workload items compute on";
    }

    @Override
    public void check(LintContext c, Findings out) {
        // Each item's hosts, in the workload's order (jobs, then services), named as the run names them.
        Map<String, TreeSet<Integer>> hosts = new LinkedHashMap<>();
        for (JobSpec j : c.config().jobs()) {
            TreeSet<Integer> set = new TreeSet<>();
            for (int r = 0; r < j.layout().size(); r++) {
                set.add(j.layout().host(r));
            }
            hosts.put("job " + j.name(), set);
        }
        for (InferenceSpec s : c.config().inference()) {
            TreeSet<Integer> set = new TreeSet<>();
            for (ServingInstance i : s.instances()) {
                for (int h : i.hosts()) {
                    set.add(h);
                }
            }
            hosts.put("inference service " + s.name(), set);
        }
        List<String> names = new ArrayList<>(hosts.keySet());
        for (int a = 0; a < names.size(); a++) {
            for (int b = a + 1; b < names.size(); b++) {
                TreeSet<Integer> both = new TreeSet<>(hosts.get(names.get(a)));
                both.retainAll(hosts.get(names.get(b)));
                if (both.isEmpty()) {
                    continue;
                }
                int[] shared = both.stream().mapToInt(Integer::intValue).toArray();
                List<String> devices = both.stream().map(h -> "h" + h).toList();
                out.add(this, Severity.WARNING, devices, List.of(),
                        names.get(a) + " and " + names.get(b) + " both compute on " + Numbers.count(shared.length,
                                "GPU", "GPUs") + " (" + Numbers.ranges(shared, "h") + ")",
                        "each computes as if it had the GPU alone: their compute steps run at once, each at full"
                                + " speed, so neither's times include the other's compute; only their flows share"
                                + " the RNIC, and that sharing counts as network wait",
                        "give each its own hosts, unless sharing the RNICs with the compute taken as given is the"
                                + " point");
            }
        }
    }
}
