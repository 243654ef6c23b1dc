package io.dbqueue.problems;

import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes Tomcat report its own errors with {@link ProblemErrorReportValve}. Ordered last, so that the
 * plain ErrorReportValve Spring Boot's customizer adds to the host is there to be replaced.
 */
final class TomcatProblemAnswers implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container host = context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
                    host.getPipeline().removeValve(valve);
                }
            }
            if (host instanceof StandardHost standard) {
                standard.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
