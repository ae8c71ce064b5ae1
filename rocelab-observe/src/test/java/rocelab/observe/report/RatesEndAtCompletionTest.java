package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.flow.FlowRecord;

/**
 * The rates chart ends each QP's line where its last flow completed (an audit: the demo's QP 5 drawn flat at 100 Gb/s
 * until the run's end at 6.6 ms, though its write completed at 0.95 ms); a QP with a flow still going keeps its line.
 */
class RatesEndAtCompletionTest {
    private static FlowRecord flow(int id, int qp, long finishPs) {
        return new FlowRecord(id, 1, 0, 1000, 0, finishPs, finishPs, 1, false, qp, 1);
    }

    @Test
    void shouldEndAFinishedQueuePairsLineAtItsCompletionAndKeepAnUnfinishedOnesToTheEnd() {
        List<TimeCharts.Trace> rates = List.of(new TimeCharts.Trace("QP0", new double[] {0, 300}, new double[] {100, 20}),
                new TimeCharts.Trace("QP1", new double[] {0, 300}, new double[] {100, 30}));
        List<TimeCharts.Trace> ids = List.of(new TimeCharts.Trace("QP0", new double[] {0, 300}, new double[] {0, 0}),
                new TimeCharts.Trace("QP1", new double[] {0, 300}, new double[] {1, 1}));
        List<TimeCharts.Trace> out = TimeCharts.endAtCompletion(rates, ids,
                List.of(flow(0, 0, 950_000_000L), flow(1, 1, -1)));
        assertThat(out.get(0).t()).containsExactly(0, 300, 950);
        assertThat(out.get(0).v()[2]).isNaN();
        assertThat(out.get(1)).isSameAs(rates.get(1));
        // Drawn: the step line has no value from 950 us to the run's end.
        Aligned a = Aligned.of(out.stream().map(TimeCharts.Trace::t).toList(),
                out.stream().map(TimeCharts.Trace::v).toList(), 0, 0, 6600);
        int end = a.x.length - 1;
        assertThat(a.x[end]).isEqualTo(6600);
        assertThat(a.y[0][end]).isNaN();
        assertThat(a.y[1][end]).isEqualTo(30);
    }
}
