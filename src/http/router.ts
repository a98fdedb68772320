// Routers of the app (src/app.ts sets the same for its own): paths match case-sensitively. Express
// matches without case by default, so /SHARED/<token> opened a share link while the access log
// (loggedPath) masked only /shared/; one spelling of each path is also one thing to limit and log.
import { Router } from 'express';

export const caseSensitiveRouter = (): Router => Router({ caseSensitive: true });
