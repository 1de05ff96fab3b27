import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { REST_BASE } from '../../api-paths.js';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import type { MediaUrlSigner } from '../photos/index.js';
import { taskApi } from './task.openapi.js';
import { presentTask, presentTaskPage } from './task.presenter.js';
import type { TaskService } from './task.service.js';
import { taskListQueryOf } from './task.validation.js';

/** /api/v1/tasks (tasks:read / tasks:write; none is a capture endpoint). */
export function taskRoutes(auth: AuthService, tasks: TaskService, urls: MediaUrlSigner): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, taskApi.list, token, requireScope('tasks:read'), async (req, res) => {
    res.json(presentTaskPage(await tasks.list(principalOf(res), taskListQueryOf(req.query)), urls));
  });
  mountApiRoute(router, taskApi.get, token, requireScope('tasks:read'), async (req, res) => {
    res.json({ data: presentTask(await tasks.get(principalOf(res), String(req.params.task)), urls) });
  });
  mountApiRoute(router, taskApi.create, token, requireScope('tasks:write'), async (req, res) => {
    const task = await tasks.create(principalOf(res), req.body);
    res.status(201).location(`${REST_BASE}/tasks/${task.id}`).json({ data: presentTask(task, urls) });
  });
  mountApiRoute(router, taskApi.update, token, requireScope('tasks:write'), async (req, res) => {
    res.json({ data: presentTask(await tasks.update(principalOf(res), String(req.params.task), req.body), urls) });
  });
  mountApiRoute(router, taskApi.withdraw, token, requireScope('tasks:write'), async (req, res) => {
    res.json({ data: presentTask(await tasks.withdraw(principalOf(res), String(req.params.task)), urls) });
  });
  return router;
}
