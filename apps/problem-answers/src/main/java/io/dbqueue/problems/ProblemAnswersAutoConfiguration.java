package io.dbqueue.problems;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Every error a service answers is a problem detail: Tomcat's own (a malformed request line or header, a bad path)
 * through {@link ProblemErrorReportValve}, and the error page's through {@link ProblemErrorController}. The
 * application's own handlers answer with {@link Problems#answer}, and {@code spring.mvc.problemdetails.enabled}
 * covers Spring MVC's.
 */
@AutoConfiguration(before = ErrorMvcAutoConfiguration.class) // its BasicErrorController yields to ours
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class ProblemAnswersAutoConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> tomcatProblemAnswers() {
        return new TomcatProblemAnswers();
    }

    @Bean
    ProblemErrorController problemErrorController() {
        return new ProblemErrorController();
    }
}
