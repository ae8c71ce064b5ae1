package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.job.JobTransferRecord;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.JobTasks;

/**
 * Every point-to-point transfer of the jobs (transfers.csv), each by the identity the job gave it: its flow task. One
 * over the fabric takes its times from its flow's record (flows.csv: its post, its last ACK, its closed form alone),
 * so the two files agree by construction; one over NVLink from the run's times of its task, its time alone the
 * NVLink's closed form (its bytes at the NVLink rate, then the latency).
 */
final class JobTransfers {
    private JobTransfers() {}

    /** The jobs' transfers in the jobs' order, each job's in the order it made them; {@code times}: the run's. */
    static List<JobTransferRecord> of(List<JobTasks> jobs, TaskTimes times, List<FlowRecord> flows) {
        TaskGraph g = times.graph();
        LocalLinks nvlink = g.localLinks();
        List<JobTransferRecord> out = new ArrayList<>();
        for (JobTasks jt : jobs) {
            var layout = jt.job().layout();
            for (JobTasks.Transfer t : jt.transfers()) {
                int f = g.flowIndex(t.flowTask());
                long start;
                long end;
                long ideal;
                if (f >= 0) {
                    FlowRecord fr = flows.get(f);
                    start = fr.startPs();
                    end = fr.completed() ? fr.finishPs() : -1;
                    ideal = fr.idealFctPs();
                } else {
                    start = times.taskStartPs(t.flowTask());
                    end = start < 0 ? -1 : times.taskEndPs(t.flowTask());
                    ideal = nvlink.serializationPs(t.bytes()) + nvlink.latencyPs();
                }
                out.add(new JobTransferRecord(jt.job().name(), t.sendName(), t.recvName(), t.iteration(), t.srcRank(),
                        t.dstRank(), layout.host(t.srcRank()), layout.host(t.dstRank()), t.bytes(), f, start, end,
                        ideal));
            }
        }
        return out;
    }
}
