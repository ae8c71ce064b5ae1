package rocelab.workload.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExprTest {
    private static final Set<String> NAMES = Set.of("pp", "PP", "mb", "dp");

    private static long eval(String text, Map<String, Long> vars) throws Exception {
        return Expr.parse(text, NAMES).eval(vars);
    }

    @Test
    void shouldEvaluateArithmeticComparisonsAndLogic() throws Exception {
        Map<String, Long> v = Map.of("pp", 2L, "PP", 4L, "mb", 5L, "dp", 0L);
        assertThat(eval("pp+1", v)).isEqualTo(3);
        assertThat(eval("(pp - 3) % PP", v)).isEqualTo(3);
        assertThat(eval("pp < PP-1 && mb % 2 == 1", v)).isEqualTo(1);
        assertThat(eval("pp == 0 || !(dp != 0)", v)).isEqualTo(1);
        assertThat(eval("-pp * 2 + 10 / 3", v)).isEqualTo(-1);
        assertThat(eval("pp >= 3", v)).isZero();
    }

    @Test
    void shouldReportWhereTheTextIsWrong() {
        assertThatThrownBy(() -> Expr.parse("pp + tp", NAMES)).isInstanceOf(Expr.ParseException.class)
                .hasMessageStartingWith("unknown name 'tp'")
                .satisfies(e -> assertThat(((Expr.ParseException) e).offset()).isEqualTo(5));
        assertThatThrownBy(() -> Expr.parse("(pp + 1", NAMES)).hasMessage("missing ')'");
        assertThatThrownBy(() -> Expr.parse("pp +", NAMES))
                .hasMessage("the expression ends too early; expected a number, a name or '('");
        assertThatThrownBy(() -> Expr.parse("pp 1", NAMES)).hasMessage("unexpected '1'; expected an operator"
                + " (+ - * / % == != < <= > >= && ||) or the end of the expression");
        assertThatThrownBy(() -> Expr.parse("pp = 1", NAMES)).hasMessage("unexpected '='; expected '==' to compare,"
                + " or another operator (+ - * / % == != < <= > >= && ||) or the end of the expression")
                .satisfies(e -> assertThat(((Expr.ParseException) e).offset()).isEqualTo(3));
        assertThatThrownBy(() -> Expr.parse("pp + )", NAMES)).hasMessage("unexpected ')'; expected a number, a name"
                + " or '('");
    }
}
