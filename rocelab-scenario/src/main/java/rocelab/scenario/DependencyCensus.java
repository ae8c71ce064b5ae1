package rocelab.scenario;

import java.nio.file.Path;
import java.util.Arrays;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.PartitionPlan;
import rocelab.workload.graph.TaskGraph;

/**
 * Prints, for scenario files, how their workload's dependencies fall over the partitions of a parallel run
 * ({@link PartitionPlan}): {@code java -cp rocelab.jar rocelab.scenario.DependencyCensus PARTS FILE...}.
 */
public final class DependencyCensus {
    private DependencyCensus() {}

    public static void main(String[] args) throws Exception {
        int parts = Integer.parseInt(args[0]);
        for (int i = 1; i < args.length; i++) {
            ScenarioConfig config = new ScenarioReader().read(Path.of(args[i]));
            Topology topology = config.topology().build();
            TaskGraph graph = Simulation.workloadGraph(config, topology);
            int p = Math.min(parts, FabricPartition.leaves(topology));
            PartitionPlan plan = PartitionPlan.of(graph, Arrays.copyOf(FabricPartition.of(topology, p),
                    topology.hostCount()));
            System.out.printf("%s (%d tasks, %d flows, %d partitions): %s%n", Path.of(args[i]).getFileName(),
                    graph.taskCount(), graph.flowCount(), p, plan.summary());
        }
    }
}
