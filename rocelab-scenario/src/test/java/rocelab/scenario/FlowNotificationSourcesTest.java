package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.fabric.nic.NotificationSources;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.FlowRecordList;
import rocelab.scenario.read.ScenarioReader;

/**
 * A flow's congestion notifications by mark port are told only when its life holds every notification its QP heard
 * (else the QP's counts by port would be other messages' too, and only the number is told, as not apart). Checked on
 * moe-alltoall, whose QPs carry 90 messages each and hear thousands of CNPs, against a probe that hears every
 * notification as its sender handles it, with the mark's port it carries.
 */
class FlowNotificationSourcesTest {
    @Test
    void shouldTellAFlowsNotificationsByPortOnlyWhenItsLifeHoldsAllItsQueuePairsAndCountThemTrue() throws Exception {
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("moe-alltoall"));
        Map<Integer, List<long[]>> heard = new HashMap<>(); // per QP: {time, node, port}
        JourneyProbe probe = new JourneyProbe() {
            @Override
            public void onCnpHandled(long nowPs, int host, Packet n, boolean reacted, long rateBps) {
                heard.computeIfAbsent(n.queuePair(), k -> new ArrayList<>())
                        .add(new long[] {nowPs, n.markNode(), n.markPort()});
            }
        };
        for (int h = 0; h < sim.network().hostCount(); h++) {
            sim.network().nic(h).journeyProbe(probe);
        }
        RunResult r = sim.run(ProgressListener.NONE);
        int byPort = 0;
        int notApart = 0;
        for (FlowRecord f : r.flows()) {
            long[] told = FlowRecordList.notificationSources(r.flows(), f.id());
            List<long[]> qp = heard.getOrDefault(f.queuePair(), List.of());
            long in = qp.stream().filter(e -> e[0] >= f.startPs() && e[0] <= f.finishPs()).count();
            long all = qp.size();
            if (told.length == 0) {
                assertThat(in).as("flow %d heard none", f.id()).isZero();
                continue;
            }
            long sum = 0;
            for (int i = 0; i < told.length; i += NotificationSources.FIELDS) {
                sum += told[i + 2];
            }
            assertThat(sum).as("flow %d's notifications", f.id()).isEqualTo(in);
            if (told[0] == NotificationSources.NOT_APART) {
                notApart++;
                assertThat(told).hasSize(NotificationSources.FIELDS);
                assertThat(in).as("flow %d: its QP heard some outside its life", f.id()).isLessThan(all);
            } else {
                byPort++;
                assertThat(in).as("flow %d: its life holds all its QP heard", f.id()).isEqualTo(all);
                for (int i = 0; i < told.length; i += NotificationSources.FIELDS) {
                    long node = told[i];
                    long port = told[i + 1];
                    long n = told[i + 2];
                    if (node >= 0) {
                        assertThat(qp.stream().filter(e -> e[1] == node && e[2] == port).count()).isEqualTo(n);
                    }
                }
            }
        }
        assertThat(notApart).as("flows on shared QPs told by number only").isPositive();
        assertThat(byPort + notApart).isPositive();
    }
}
